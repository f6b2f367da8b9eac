package retrygate

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAttemptsAndError(t *testing.T) {
	e := &Error{Attempts: 3, Err: errors.New("boom")}
	assert.Equal(t, 0, Attempts(nil))
	assert.Equal(t, 0, Attempts(errors.New("plain")))
	assert.Equal(t, 3, Attempts(e))
	assert.Equal(t, 3, Attempts(fmt.Errorf("tool: %w", e)))
	assert.Equal(t, "retrygate: 3 attempts: boom", e.Error())
	assert.Equal(t, "<nil>", (*Error)(nil).Error())
	assert.NoError(t, (*Error)(nil).Unwrap())
	assert.Equal(t, "retrygate: 0 attempts: <nil>", (&Error{}).Error())
}
