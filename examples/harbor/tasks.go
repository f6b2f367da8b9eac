package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// scenario names the fault the carrier has scripted for one order. The
// agents never see it: they learn about a fault only from tool responses.
type scenario string

// The scripted scenarios. Each order gets exactly one.
const (
	scClean           scenario = "clean"            // no fault
	scSKUTypo         scenario = "sku_typo"         // the SKU is mistyped; the catalog knows the right one
	scSKUUnknown      scenario = "sku_unknown"      // the SKU exists nowhere
	scWeightPrecision scenario = "weight_precision" // weight with more precision than the carrier's 0.1 kg steps
	scWeightOver      scenario = "weight_over"      // heavier than the carrier's 70 kg limit: needs freight
	scRateLimited     scenario = "rate_limited"     // two 429s with Retry-After: 1 on label creation
	scReserveFlaky    scenario = "reserve_flaky"    // two 503s on the stock reservation
	scOutage          scenario = "outage"           // four 503 pages with Retry-After: 2 on label creation
	scLabelTimeout    scenario = "label_timeout"    // the first label is created and paid, but its answer never arrives in time
	scLeakedKey       scenario = "leaked_key"       // label creation fails with a 500 that leaks an API key and a host
	scAlreadyLabelled scenario = "already_labelled" // a label was bought for the order yesterday
	scServiceTypo     scenario = "service_typo"     // the user typed the service as "Express"
	scGeocoderDown    scenario = "geocoder_down"    // the primary geocoder answers 503 pages all day; the backup works
	scOptedOut        scenario = "opted_out"        // the customer opted out of notifications: a refusal that never passes
)

// scenarioWeights is the mix of scenarios tasks are drawn from.
var scenarioWeights = []struct {
	s scenario
	w int
}{
	{scClean, 30}, {scSKUTypo, 7}, {scSKUUnknown, 5}, {scWeightPrecision, 7}, {scWeightOver, 5},
	{scRateLimited, 8}, {scReserveFlaky, 8}, {scOutage, 7}, {scLabelTimeout, 10},
	{scLeakedKey, 6}, {scAlreadyLabelled, 7}, {scServiceTypo, 6},
	{scGeocoderDown, 6}, {scOptedOut, 5},
}

// catalogSize is the number of SKUs the carrier stocks: SKU-1000 upwards.
const catalogSize = 60

// task is one shipment request the assistant has to fulfil, as a user
// typed it: the SKU and the weight may be wrong.
type task struct {
	ID       int
	Order    string
	Customer string
	SKU      string
	Quantity int
	WeightKg float64
	Service  string
	// Address is a delivery address typed as text, to geocode before the
	// label is bought; empty when the order's address is on file.
	Address  string
	Scenario scenario
}

// catalogSKU returns the i-th SKU of the carrier's catalog.
func catalogSKU(i int) string { return fmt.Sprintf("SKU-%d", 1000+i) }

// normalizeSKU folds the spellings a person types into the catalog's form.
func normalizeSKU(s string) string {
	return strings.ReplaceAll(strings.ToUpper(strings.TrimSpace(s)), "_", "-")
}

// newTasks draws n tasks from a generator seeded with seed: the same seed
// gives the same tasks, faults included.
func newTasks(n int, seed uint64) []task {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	total := 0
	for _, sw := range scenarioWeights {
		total += sw.w
	}
	tasks := make([]task, n)
	for i := range tasks {
		pick, sc := rng.IntN(total), scClean
		for _, sw := range scenarioWeights {
			if pick < sw.w {
				sc = sw.s
				break
			}
			pick -= sw.w
		}
		sku := catalogSKU(rng.IntN(catalogSize))
		weight := float64(5+rng.IntN(195)) / 10 // 0.5 to 19.9 kg in 0.1 kg steps
		switch sc {
		case scSKUTypo:
			sku = strings.ReplaceAll(strings.ToLower(sku), "-", "_") + " "
		case scSKUUnknown:
			sku = fmt.Sprintf("SKU-%d", 7000+rng.IntN(1000))
		case scWeightPrecision:
			weight = math.Round(weight*10)/10 + float64(1+rng.IntN(9))/100 // 2.3 → 2.34
		case scWeightOver:
			weight = float64(71 + rng.IntN(60))
		}
		service := "ground"
		if rng.IntN(4) == 0 {
			service = "express"
		}
		if sc == scServiceTypo {
			service = "Express"
		}
		address := ""
		if sc == scGeocoderDown || rng.IntN(5) == 0 {
			address = fmt.Sprintf("%d Quay Street, Harbour Town", 1+rng.IntN(200))
		}
		tasks[i] = task{
			ID:       i,
			Order:    fmt.Sprintf("ORD-%05d", i+1),
			Customer: fmt.Sprintf("cus_%04d", rng.IntN(10000)),
			SKU:      sku,
			Quantity: 1 + rng.IntN(3),
			WeightKg: weight,
			Service:  service,
			Address:  address,
			Scenario: sc,
		}
	}
	return tasks
}
