package retrygate

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// escCall is one call of an escalation hook.
type escCall struct {
	task string
	errs []error
}

// recordingEscalation returns an Escalation whose hook records its calls.
func recordingEscalation(after int) (*Escalation, func() []escCall) {
	var mu sync.Mutex
	var calls []escCall
	e := NewEscalation(after, func(task string, errs []error) {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, escCall{task, errs})
	})
	return e, func() []escCall {
		mu.Lock()
		defer mu.Unlock()
		return append([]escCall(nil), calls...)
	}
}

func TestEscalationObserve(t *testing.T) {
	e1, e2, e3 := errors.New("e1"), errors.New("e2"), errors.New("e3")
	type step struct {
		task string
		err  error
	}
	tests := []struct {
		name  string
		after int
		steps []step
		want  []escCall
	}{
		{"below the threshold", 3, []step{{"a", e1}, {"a", e2}}, nil},
		{"at the threshold, once", 3, []step{{"a", e1}, {"a", e2}, {"a", e3}, {"a", e1}, {"a", e2}},
			[]escCall{{"a", []error{e1, e2, e3}}}},
		{"success resets", 2, []step{{"a", e1}, {"a", nil}, {"a", e2}}, nil},
		{"a new run escalates again", 2, []step{{"a", e1}, {"a", e2}, {"a", nil}, {"a", e3}, {"a", e1}},
			[]escCall{{"a", []error{e1, e2}}, {"a", []error{e3, e1}}}},
		{"tasks are apart", 2, []step{{"a", e1}, {"b", e2}, {"b", nil}, {"a", e3}},
			[]escCall{{"a", []error{e1, e3}}}},
		{"after <= 0 means 2", 0, []step{{"a", e1}, {"a", e2}},
			[]escCall{{"a", []error{e1, e2}}}},
		{"success of an unknown task", 2, []step{{"x", nil}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, calls := recordingEscalation(tt.after)
			for _, s := range tt.steps {
				e.Observe(s.task, s.err)
			}
			assert.Equal(t, tt.want, calls())
		})
	}
}

func TestEscalationKeepsLastErrors(t *testing.T) {
	e, calls := recordingEscalation(20)
	var all []error
	for i := range 20 {
		err := fmt.Errorf("failure %d", i)
		all = append(all, err)
		e.Observe("t", err)
	}
	got := calls()
	require.Len(t, got, 1)
	assert.Equal(t, all[4:], got[0].errs)
}

func TestEscalationBoundsTasks(t *testing.T) {
	e, calls := recordingEscalation(2)
	boom := errors.New("boom")
	e.Observe("old", boom)
	e.Observe("kept", boom)
	for i := range maxEscalationTasks - 2 {
		e.Observe("task-"+strconv.Itoa(i), boom)
	}
	e.Observe("kept", nil)
	e.Observe("kept", boom) // now the most recent
	e.Observe("new", boom)  // evicts "old", the least recently observed
	assert.Len(t, e.tasks, maxEscalationTasks)
	assert.Equal(t, maxEscalationTasks, e.order.Len())

	e.Observe("old", boom) // a fresh run: count 1
	assert.Empty(t, calls())
	e.Observe("task-5", boom) // still tracked: count 2
	require.Len(t, calls(), 1)
	assert.Equal(t, "task-5", calls()[0].task)
	assert.LessOrEqual(t, len(e.tasks), maxEscalationTasks)
}

func TestEscalationNil(t *testing.T) {
	var e *Escalation
	assert.NotPanics(t, func() { e.Observe("t", errors.New("x")) })
	quiet := NewEscalation(1, nil)
	assert.NotPanics(t, func() { quiet.Observe("t", errors.New("x")) })
}

func TestEscalationConcurrent(t *testing.T) {
	var hooks atomic.Int64
	var reentrant *Escalation
	e := NewEscalation(5, func(task string, errs []error) {
		hooks.Add(1)
		reentrant.Observe(task, nil) // the hook may call back in: no lock is held
	})
	reentrant = e
	boom := errors.New("boom")
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			task := "task-" + strconv.Itoa(g%4)
			for i := range 500 {
				if i%50 == 49 {
					e.Observe(task, nil)
					continue
				}
				e.Observe(task, boom)
			}
		})
	}
	wg.Wait()
	assert.Positive(t, hooks.Load())
	assert.LessOrEqual(t, len(e.tasks), 4)
}
