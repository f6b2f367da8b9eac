package translate

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// djangoTextPage is the start of Django's plain-text debug page, in the
// shape its technical_500.txt template gives it.
const djangoTextPage = "IntegrityError at /api/orders/\n" +
	"duplicate key value violates unique constraint \"orders_order_reference_key\"\n" +
	"DETAIL:  Key (reference)=(A-1001) already exists.\n\n\n" +
	"Request Method: POST\nRequest URL: http://api.internal:8000/api/orders/\n" +
	"Django Version: 4.2.7\nPython Executable: /usr/local/bin/python\n" +
	"Python Version: 3.11.6\nPython Path: ['/app']\n\n" +
	"Traceback (most recent call last):\n" +
	"  File \"/usr/local/lib/python3.11/site-packages/django/db/backends/utils.py\", line 89, in _execute\n" +
	"    return self.cursor.execute(sql, params)\n\n" +
	"Exception Type: IntegrityError at /api/orders/\n"

func TestDjangoTextPageHeadline(t *testing.T) {
	set := mustSet(t)
	o, ok := set.Translate(&Raw{Status: 500, Header: http.Header{"Content-Type": {"text/plain; charset=utf-8"}}, Body: []byte(djangoTextPage)})
	assert.True(t, ok)
	assert.Equal(t, `IntegrityError: duplicate key value violates unique constraint "orders_order_reference_key"`, o.Message)

	for _, tc := range []struct{ body, want string }{
		// The dotted name, as some versions print it.
		{"django.db.utils.OperationalError at /x\nno such table: orders\n\nRequest Method: GET\n", "django.db.utils.OperationalError: no such table: orders"},
		// Not Django's page: the first line, as for any text.
		{"Service at /health is down\nplease retry\n", "Service at /health is down"},
		{"Not Found at /x y\nvalue\nRequest Method: GET\n", "Not Found at /x y"},
		{"KeyError at /x\n\nRequest Method: GET\n", "KeyError at /x"},
	} {
		o, _ := set.Translate(&Raw{Status: 500, Header: http.Header{"Content-Type": {"text/plain"}}, Body: []byte(tc.body)})
		assert.Equal(t, tc.want, o.Message, "%q", tc.body)
	}
}
