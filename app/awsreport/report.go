// Package awsreport prints the results of core/sim's AWS experiment
// (retrylab sim aws): a table, a CSV file and an SVG chart.
package awsreport

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"retrylab/core/sim"
)

// curveNames returns the curves' names in experiment order.
func curveNames(r *sim.Results) []string {
	names := make([]string, len(r.Experiment.Curves))
	for i, c := range r.Experiment.Curves {
		names[i] = c.Name
	}
	return names
}

// caption describes r's setup in one line.
func caption(r *sim.Results) string {
	e := &r.Experiment
	base, cap := "", ""
	for _, c := range e.Curves {
		if c.Backoff.Cap > 0 {
			base, cap = c.Backoff.Base.String(), c.Backoff.Cap.String()
			break
		}
	}
	s := fmt.Sprintf("%d runs per point, network delay |Normal(%v, %v)| per message, seed %d", e.Runs, e.NetMean, e.NetSD, e.Seed)
	if base != "" {
		s = "base " + base + ", cap " + cap + ", " + s
	}
	return s
}

// Table writes the results as a Markdown table (readable as plain
// text too): one row per number of clients, the mean calls of each curve,
// then the mean completion time of each curve in seconds.
func Table(w io.Writer, r *sim.Results) error {
	bw := bufio.NewWriter(w)
	names := curveNames(r)
	head := []string{"clients"}
	for _, n := range names {
		head = append(head, "calls "+n)
	}
	for _, n := range names {
		head = append(head, "time "+n+" (s)")
	}
	rows := [][]string{head}
	for _, n := range r.Experiment.Clients {
		row := []string{strconv.Itoa(n)}
		for _, c := range names {
			p, _ := r.Point(c, n)
			row = append(row, strconv.FormatFloat(p.CallsMean, 'f', 0, 64))
		}
		for _, c := range names {
			p, _ := r.Point(c, n)
			row = append(row, strconv.FormatFloat(p.CompletionMean.Seconds(), 'f', 2, 64))
		}
		rows = append(rows, row)
	}
	widths := make([]int, len(head))
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], len(c))
		}
	}
	line := func(row []string) {
		bw.WriteString("|")
		for i, c := range row {
			bw.WriteString(" " + strings.Repeat(" ", widths[i]-len(c)) + c + " |")
		}
		bw.WriteString("\n")
	}
	line(rows[0])
	bw.WriteString("|")
	for _, wd := range widths {
		bw.WriteString(strings.Repeat("-", wd+1) + ":|")
	}
	bw.WriteString("\n")
	for _, row := range rows[1:] {
		line(row)
	}
	gave := 0
	for _, p := range r.Points {
		gave += p.GaveUp
	}
	fmt.Fprintf(bw, "\nCalls: attempts (read + conditional write) of all clients, mean over runs. Time: until the last client's write succeeded.\n%s.\n", caption(r))
	if gave > 0 {
		fmt.Fprintf(bw, "Warning: %d clients gave up after the maximum number of attempts; their points undercount.\n", gave)
	}
	return bw.Flush()
}

// CSVHeader is the header line of CSV.
var CSVHeader = []string{"strategy", "clients", "runs", "calls_mean", "calls_sd", "completion_ms_mean", "completion_ms_sd", "gave_up"}

// CSV writes one line per point: strategy, clients, runs, mean and
// standard deviation of the calls and of the completion time (ms), and the
// clients that gave up.
func CSV(w io.Writer, r *sim.Results) error {
	cw := csv.NewWriter(w)
	cw.Write(CSVHeader)
	ms := func(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 3, 64) }
	for _, p := range r.Points {
		cw.Write([]string{p.Curve, strconv.Itoa(p.Clients), strconv.Itoa(p.Runs),
			strconv.FormatFloat(p.CallsMean, 'f', 2, 64), strconv.FormatFloat(p.CallsSD, 'f', 2, 64),
			ms(p.CompletionMean), ms(p.CompletionSD), strconv.Itoa(p.GaveUp)})
	}
	cw.Flush()
	return cw.Error()
}
