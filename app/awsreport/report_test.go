package awsreport

import (
	"bytes"
	"encoding/csv"
	"reflect"
	"strings"
	"testing"

	"retrylab/core/sim"
)

// TestOutputs: the table, the CSV and the SVG of a small sweep of the AWS
// experiment.
func TestOutputs(t *testing.T) {
	e := sim.AWS()
	e.Clients = []int{10, 20}
	e.Runs, e.Seed = 3, 2015
	res, err := e.Run()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := CSV(&b, res); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+5*2 || !reflect.DeepEqual(rows[0], CSVHeader) || rows[1][0] != "none" || rows[1][1] != "10" || rows[1][2] != "3" {
		t.Errorf("csv:\n%v", rows)
	}
	b.Reset()
	if err := Table(&b, res); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(b.String(), "\n"); !strings.HasPrefix(lines[0], "| clients | calls none |") || !strings.Contains(lines[2], "|      10 |") {
		t.Errorf("table:\n%s", b.String())
	}
	b.Reset()
	if err := SVG(&b, res); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	for _, want := range []string{`<svg xmlns="http://www.w3.org/2000/svg"`, "no backoff", "decorrelated jitter", "calls (mean of 3 runs)",
		"completion time of the last client (s, log scale)", `stroke="#D55E00"`, `stroke-dasharray="10 5"`, "</svg>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("svg lacks %q", want)
		}
	}
	if strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") {
		t.Error("svg has NaN or Inf coordinates")
	}
}
