package main

import (
	"strings"
	"testing"
)

// TestDocsHaveMarkers: docs/MOBILE.md and the README carry every marker
// pair once, so `make measure-mobile` can write each figure (the values
// vary by machine and are not checked).
func TestDocsHaveMarkers(t *testing.T) {
	if err := run("", map[string]string{"MOBILE": "../../../docs/MOBILE.md", "README": "../../../README.md"}, true); err != nil {
		t.Fatal(err)
	}
}

// sampleRun is the output of a measurement run, abridged: two cold-start
// runs of each mechanism, two benchmark counts.
func sampleRun(goSide, three string) string {
	var b strings.Builder
	b.WriteString(`== 1. JVM side
figure jvm=OpenJDK 64-Bit Server VM 17.0.15
figure mem.runtime_mb=5.8
figure mem.open_mb=8.0
figure mem.call_mb=0.1
figure mem.go_side_mb=` + goSide + `
figure mem.after_free_mb=13.1
figure mem.anon_mb=10.2
figure mem.file_mb=3.7
figure mem.three_mb=` + three + `
figure call.brr_ns=483000
figure call.1dg_ns=10000
figure call.errcode_ns=280.0
BenchmarkPrivatize20Words/brr-2   	    2000	    479000 ns/op	     455 B/op	       6 allocs/op
BenchmarkPrivatize20Words/brr-2   	    2000	    481000 ns/op	     455 B/op	       6 allocs/op
BenchmarkPrivatize20Words/1dg-2   	  200000	      5900 ns/op	     442 B/op	       7 allocs/op
BenchmarkPrivatize20Words/1dg-2   	  200000	      6100 ns/op	     442 B/op	       7 allocs/op
BenchmarkPrivatizeErrCode-2       	100000000	        11.0 ns/op
BenchmarkPrivatizeErrCode-2       	100000000	        12.0 ns/op
figure size.host_so=8761808
figure size.host_so_stripped=7158040
figure size.android_proxy=6881576
figure size.asset=3404822
figure machine.cpu=AMD EPYC 9B14
figure machine.cores=2
figure machine.load=0.50
figure machine.os=Linux/amd64
figure machine.go=go1.26.8
figure machine.mobile=v0.0.0-x
`)
	for _, m := range coldMechanisms {
		b.WriteString("mech=" + m + " version=devel load_ms=17.0 open_ms=24.0 first_call_ms=0.70 cold_ms=45.0 rss_before_mb=37.0 rss_after_mb=51.0 go_side_mb=14.0 peak_mb=54.0\n")
		b.WriteString("mech=" + m + " version=devel load_ms=19.0 open_ms=26.0 first_call_ms=0.90 cold_ms=47.0 rss_before_mb=37.0 rss_after_mb=52.0 go_side_mb=15.0 peak_mb=55.0\n")
	}
	return b.String()
}

// skeleton is a pair of documents with every marker pair, empty.
func skeleton() map[string]string {
	docs := map[string]string{"MOBILE": "# Mobile\n", "README": "| mobile | done; "}
	for _, s := range sections {
		m := "<!-- measured:" + s.name + " --><!-- /measured:" + s.name + " -->"
		if !s.inline {
			m += "\n"
		}
		docs[s.file] += m
	}
	docs["README"] += " |\n"
	return docs
}

func TestRender(t *testing.T) {
	for _, tc := range []struct {
		name        string
		goSide      string
		three       string
		mobileWants []string
		readmeWant  string
	}{
		{"within the budget", "13.9", "14.5",
			[]string{"| **Go side after the first call** | **13.9 MB** |", "- one privatizer after its first call: met (13.9 MB);",
				"three privatizers alive at once: met (14.5 MB)",
				"| `brr` | 2 | 17.0 ms | 24.0 ms | 0.70 ms | **45.0 ms** | 14.0 MB | 51.0 MB | 54.0 MB |",
				"| `privatize` + `getText`, BRR (default) | 483 µs | 479 µs (455 B, 6 allocs) | 4.0 µs |",
				"| `Mobile.errCode(\"WV_IO: x\")` (trivial call) | 0.280 µs | 0.011 µs | 0.269 µs |",
				"| the same, `strip --strip-unneeded` | 7,158,040 |",
				"Measured on AMD EPYC 9B14 (2 cores; load average 0.50 when the run began),\nLinux/amd64, OpenJDK 64-Bit Server VM 17.0.15, go1.26.8, golang.org/x/mobile v0.0.0-x."},
			"Go-side resident memory 13.9 MB after loading the asset and a first call (within the 15 MB budget; 14.5 MB with three privatizers alive;"},
		{"over the budget", "16.2", "17.0",
			[]string{"- one privatizer after its first call: **not met** (16.2 MB, 1.2 MB over);",
				"three privatizers alive at once: **not met** (17.0 MB, 2.0 MB over)"},
			"Go-side resident memory 16.2 MB after loading the asset and a first call (over the 15 MB budget;"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			figs, err := parseFigures(strings.NewReader(sampleRun(tc.goSide, tc.three)))
			if err != nil {
				t.Fatal(err)
			}
			out, err := render(figs, skeleton())
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.mobileWants {
				if !strings.Contains(out["MOBILE"], w) {
					t.Errorf("MOBILE lacks %q:\n%s", w, out["MOBILE"])
				}
			}
			if !strings.Contains(out["README"], tc.readmeWant) || strings.Count(out["README"], "\n") != 1 {
				t.Errorf("README %q, want %q on its one line", out["README"], tc.readmeWant)
			}
			// Rendering again replaces, never appends.
			again, err := render(figs, out)
			if err != nil || again["MOBILE"] != out["MOBILE"] || again["README"] != out["README"] {
				t.Errorf("a second rendering changed the documents (%v)", err)
			}
		})
	}
}

// TestRenderRefuses: a missing figure, a missing marker and a repeated
// marker are errors, never a document with blanks.
func TestRenderRefuses(t *testing.T) {
	full := sampleRun("13.9", "14.5")
	figs, _ := parseFigures(strings.NewReader(strings.Replace(full, "figure mem.three_mb=14.5\n", "", 1)))
	if _, err := render(figs, skeleton()); err == nil || !strings.Contains(err.Error(), "mem.three_mb") {
		t.Errorf("missing figure: %v", err)
	}
	figs, _ = parseFigures(strings.NewReader(strings.ReplaceAll(full, "mech=1dt ", "mech=1dt-gone ")))
	if _, err := render(figs, skeleton()); err == nil || !strings.Contains(err.Error(), "cold start 1dt") {
		t.Errorf("missing cold start: %v", err)
	}
	figs, _ = parseFigures(strings.NewReader(full))
	docs := skeleton()
	docs["MOBILE"] = strings.Replace(docs["MOBILE"], "<!-- /measured:sizes -->", "", 1)
	if _, err := render(figs, docs); err == nil || !strings.Contains(err.Error(), "sizes") {
		t.Errorf("missing marker: %v", err)
	}
	docs = skeleton()
	docs["MOBILE"] += "<!-- measured:calls --><!-- /measured:calls -->\n"
	if _, err := render(figs, docs); err == nil || !strings.Contains(err.Error(), "more than once") {
		t.Errorf("repeated marker: %v", err)
	}
	if _, err := parseFigures(strings.NewReader("mech=brr load_ms=fast\n")); err == nil {
		t.Error("a non-number cold-start field was accepted")
	}
}
