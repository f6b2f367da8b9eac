package retrygate

import (
	"container/list"
	"sync"
)

const (
	// defaultEscalateAfter is the threshold of NewEscalation when after <= 0.
	defaultEscalateAfter = 2
	// maxEscalationErrs is how many of a task's latest errors are kept.
	maxEscalationErrs = 16
	// maxEscalationTasks is how many tasks are tracked; the least recently
	// observed is dropped first.
	maxEscalationTasks = 10000
)

// Escalation counts consecutive failures per task and calls a hook once a
// task reaches a threshold, so that a task that keeps failing goes to a
// person (a human queue) instead of being retried forever.
//
// A task is whatever the caller names one: an agent run, a ticket, a tool
// call chain. Feed it the outcome of each step, typically the error Do
// returned. An Escalation tracks at most 10,000 tasks, dropping the least
// recently observed, and keeps at most the last 16 errors of each. It is
// safe for concurrent use.
type Escalation struct {
	after int
	hook  func(task string, errs []error)

	mu    sync.Mutex
	tasks map[string]*list.Element // of *taskState
	order *list.List               // front: most recently observed
}

// taskState is the failure run of one task.
type taskState struct {
	task     string
	failures int
	errs     []error
}

// NewEscalation returns an Escalation that calls hook when a task has failed
// after times in a row (default 2 when after <= 0). A nil hook makes
// Observe only count.
func NewEscalation(after int, hook func(task string, errs []error)) *Escalation {
	if after <= 0 {
		after = defaultEscalateAfter
	}
	return &Escalation{
		after: after,
		hook:  hook,
		tasks: make(map[string]*list.Element),
		order: list.New(),
	}
}

// Observe records one outcome of task. A nil err is a success and forgets
// the task's failures. A failure adds to the task's run; when the run reaches
// the threshold the hook is called once, with the run's errors (the last 16
// at most, oldest first), outside any lock. Later failures of the same run do
// not call it again; a success starts a new run. Observe on a nil
// *Escalation does nothing.
func (e *Escalation) Observe(task string, err error) {
	if e == nil {
		return
	}
	errs := e.record(task, err)
	if errs != nil && e.hook != nil {
		e.hook(task, errs)
	}
}

// record updates the task's run and returns a copy of its errors when the
// run has just reached the threshold, nil otherwise.
func (e *Escalation) record(task string, err error) []error {
	e.mu.Lock()
	defer e.mu.Unlock()
	el, ok := e.tasks[task]
	if err == nil {
		if ok {
			e.order.Remove(el)
			delete(e.tasks, task)
		}
		return nil
	}
	if ok {
		e.order.MoveToFront(el)
	} else {
		el = e.order.PushFront(&taskState{task: task})
		e.tasks[task] = el
		e.evict()
	}
	st, _ := el.Value.(*taskState)
	st.failures++
	if len(st.errs) == maxEscalationErrs {
		copy(st.errs, st.errs[1:])
		st.errs = st.errs[:maxEscalationErrs-1]
	}
	st.errs = append(st.errs, err)
	if st.failures != e.after {
		return nil
	}
	return append([]error(nil), st.errs...)
}

// evict drops the least recently observed tasks beyond the bound.
func (e *Escalation) evict() {
	for e.order.Len() > maxEscalationTasks {
		old := e.order.Back()
		e.order.Remove(old)
		if st, ok := old.Value.(*taskState); ok {
			delete(e.tasks, st.task)
		}
	}
}
