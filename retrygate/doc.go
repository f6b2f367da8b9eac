// Package retrygate retries tool calls to downstream services the way the
// error contract allows, and no more.
//
// Only a failure whose *toolerr.Error says Retryable, of category rate_limit
// or transient (internal by option), is tried again; validation, not_found,
// auth, permission, precondition, conflict, policy and upstream failures come
// back at once, because repeating the same call cannot fix them. Waits follow
// exponential backoff with full jitter unless the server named a delay
// (retry_after_ms, Retry-After), which wins, capped. A wait that would pass
// the context's deadline is not slept: the failure goes back to the caller
// with its retry_after_ms, so the agent or orchestrator can schedule the next
// try itself.
//
// Three mechanisms keep retries from making an outage worse, all on by
// default: a cap on attempts per call (Policy.MaxAttempts, 3); a [Budget]
// shared by all calls of one client, a token bucket in the manner of gRPC's
// retry throttling that ends retries with RETRY_BUDGET_EXHAUSTED once they
// pass about a tenth of first-attempt successes, so that a host failing
// every call receives about one request per call, not three
// (Policy.NoBudget or [WithoutBudget] turns it off); and a circuit breaker
// per downstream host ([Breakers]) that opens when at least 80 % of 20 or
// more calls within 10 s failed and answers CIRCUIT_OPEN for 5 s, then lets
// one trial call through. A host that fails part of its calls stays in
// service: the breaker opens on a failure ratio, not on a short streak. An
// [Escalation] hands a task that keeps failing to a person.
//
// Retries do not multiply across layers: when a Transport spent its
// retries, the error built from its response (translate.Response) reports
// the attempts (upstream.attempts) and allows the agent one more call
// (retry_policy.max_attempts 2), which the Transport sends once (the
// handoff, see [Transport]); Do obeys that max_attempts. A vendor that is
// down receives 4 calls per task, not 9.
//
// [Do] is the core: it runs any func(ctx) error under a [Policy] and returns
// nil or an [*Error] that carries the last failure and the attempt count
// ([Attempts]). [Transport] applies Do to HTTP: it wraps an
// http.RoundTripper, rewinds request bodies, retries a POST or PATCH only
// when it carries an idempotency key (the same key on every attempt) and
// classifies each response through package translate.
//
// # Wrapping an http.Client for a tool handler
//
// A tool handler that calls a vendor API builds its client once, so that
// one budget and one set of breakers serve all its calls, and gives every
// call the handler's deadline:
//
//	policy := retrygate.DefaultPolicy() // with a budget of its own
//	policy.OnGiveUp = func(ev retrygate.GiveUpEvent) {
//		logger.Warn("vendor call failed", "attempts", ev.Attempts, "reason", ev.Reason, "err", ev.Err)
//	}
//	client := &http.Client{Transport: retrygate.Transport(nil, retrygate.WithPolicy(policy))}
//
// and each handler calls through it:
//
//	func (h *Handler) SearchOrders(w http.ResponseWriter, r *http.Request) {
//		ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second)
//		defer cancel()
//		q := r.URL.Query().Get("q")
//		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, h.base+"/v1/orders?q="+url.QueryEscape(q), nil)
//		resp, err := h.client.Do(req)
//		if err != nil {
//			// No response arrived, or the breaker is open: err wraps a
//			// *retrygate.Error around a *toolerr.Error (UPSTREAM_TIMEOUT,
//			// CIRCUIT_OPEN, RETRY_BUDGET_EXHAUSTED, ...), rendered as is.
//			toolerr.Write(w, r, err)
//			return
//		}
//		defer resp.Body.Close()
//		// Any HTTP response comes back as the vendor sent it, after the
//		// last attempt; classify a failure for the agent.
//		if err := h.translate.Response(resp); err != nil {
//			toolerr.Write(w, r, err)
//			return
//		}
//		w.Header().Set("Content-Type", "application/json")
//		_, _ = io.Copy(w, resp.Body)
//	}
//
// The handler never loops itself: a 503 or a reset was retried with backoff
// inside the transport, a 429 waited exactly the vendor's Retry-After when it
// fit in the deadline, and a 400 was returned after one attempt.
//
// Code that is not HTTP (a gRPC stub, a database) calls [Do] directly and
// returns a *toolerr.Error from its operation; see the example of Do.
package retrygate
