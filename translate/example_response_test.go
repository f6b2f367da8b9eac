package translate_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/translate"
)

// getCharge calls a vendor and returns its error, classified, or decodes
// the charge.
func getCharge(client *http.Client, req *http.Request, charge any) error {
	resp, err := client.Do(req)
	if err != nil {
		return err // the middleware classifies network errors
	}
	defer resp.Body.Close()
	if err := translate.Response(resp); err != nil {
		return err
	}
	return json.NewDecoder(resp.Body).Decode(charge)
}

// A vendor's error response becomes a classified error; a success is
// left readable.
func ExampleResponse() {
	vendor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/v1/charges/ch_1" {
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"error":{"type":"invalid_request_error","code":"resource_missing","param":"id","message":"No such charge: 'ch_2'"}}`)
			return
		}
		_, _ = io.WriteString(w, `{"id":"ch_1","amount":500}`)
	}))
	defer vendor.Close()

	var charge struct {
		ID     string `json:"id"`
		Amount int    `json:"amount"`
	}
	req, _ := http.NewRequest(http.MethodGet, vendor.URL+"/v1/charges/ch_1", nil)
	fmt.Println(getCharge(vendor.Client(), req, &charge), charge.ID, charge.Amount)

	req, _ = http.NewRequest(http.MethodGet, vendor.URL+"/v1/charges/ch_2", nil)
	e, _ := toolerr.From(getCharge(vendor.Client(), req, &charge))
	fmt.Println(e.Code, e.Field, e.Upstream.Status, e.Upstream.Code)
	// Output:
	// <nil> ch_1 500
	// NOT_FOUND id 404 resource_missing
}
