package main

import (
	"fmt"
	"strings"
)

// budgetMB is docs/MOBILE.md's Go-side memory budget for a keyboard.
const budgetMB = 15.0

// coldMechanisms are the mechanisms of the cold-start table, in its order.
var coldMechanisms = []string{"brr", "tem-hamming", "1dg", "1dt"}

// section renders one marked section from the figures.
type section struct {
	file string // "MOBILE" (docs/MOBILE.md) or "README"
	name string
	// inline sections sit inside a line (a table cell): no newlines.
	inline bool
	render func(n *need) string
}

var sections = []section{
	{"MOBILE", "machine", false, renderMachine},
	{"MOBILE", "memory", false, renderMemory},
	{"MOBILE", "coldstart", false, renderColdStart},
	{"MOBILE", "calls", false, renderCalls},
	{"MOBILE", "sizes", false, renderSizes},
	{"README", "go-side", true, renderReadme},
}

func renderMachine(n *need) string {
	return fmt.Sprintf("Measured on %s (%s cores; load average %s when the run began),\n"+
		"%s, %s, %s, golang.org/x/mobile %s.\n"+
		"Every figure in this section is written here by `make measure-mobile`\n"+
		"(= `scripts/measure-mobile.sh`, through `scripts/measure/mobiledoc`), not\n"+
		"copied by hand; they vary from machine to machine and run to run, the\n"+
		"timings most (they grow with the load).\n",
		n.str("machine.cpu"), n.str("machine.cores"), n.str("machine.load"), n.str("machine.os"), n.str("jvm"), n.str("machine.go"), n.str("machine.mobile"))
}

// verdict says whether mb is within the budget.
func verdict(mb float64) string {
	if mb <= budgetMB {
		return fmt.Sprintf("met (%.1f MB)", mb)
	}
	return fmt.Sprintf("**not met** (%.1f MB, %.1f MB over)", mb, mb-budgetMB)
}

func renderMemory(n *need) string {
	one, three := n.num("mem.go_side_mb"), n.num("mem.three_mb")
	cold := 0.0
	for _, m := range coldMechanisms {
		cold = max(cold, n.cold(m, "go_side_mb"))
	}
	var b strings.Builder
	b.WriteString("| step | VmRSS change |\n|---|---|\n")
	fmt.Fprintf(&b, "| Go runtime + library loaded | %+.1f MB |\n", n.num("mem.runtime_mb"))
	fmt.Fprintf(&b, "| `openPrivatizer` (default asset, BRR) | %+.1f MB |\n", n.num("mem.open_mb"))
	fmt.Fprintf(&b, "| one `privatize` (20 words) | %+.1f MB |\n", n.num("mem.call_mb"))
	fmt.Fprintf(&b, "| **Go side after the first call** | **%.1f MB** |\n", one)
	fmt.Fprintf(&b, "| of which anonymous memory (Go heap, stacks, runtime) | %.1f MB |\n", n.num("mem.anon_mb"))
	fmt.Fprintf(&b, "| of which file-backed pages (library code) | %.1f MB |\n", n.num("mem.file_mb"))
	fmt.Fprintf(&b, "| after `freeOSMemory` | %.1f MB |\n", n.num("mem.after_free_mb"))
	fmt.Fprintf(&b, "| with BRR + 1DG + TEM-Hamming privatizers alive | %.1f MB |\n", three)
	fmt.Fprintf(&b, "\nAgainst the ≤ %.0f MB Go-side budget (iOS kills keyboard extensions at\n"+
		"roughly 48–70 MB in all), measured by this run:\n\n", budgetMB)
	fmt.Fprintf(&b, "- one privatizer after its first call: %s;\n", verdict(one))
	fmt.Fprintf(&b, "- the largest Go side of the cold starts below (one privatizer, no GC): %s;\n", verdict(cold))
	fmt.Fprintf(&b, "- three privatizers alive at once: %s. A keyboard needs one; close\n"+
		"  (`Privatizer.close`) any other before opening the next.\n", verdict(three))
	return b.String()
}

func renderColdStart(n *need) string {
	var b strings.Builder
	b.WriteString("| mechanism | runs | load + Go runtime | `openPrivatizer` | first call | **cold start** | Go side (VmRSS growth) | process VmRSS | process VmHWM |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, m := range coldMechanisms {
		fmt.Fprintf(&b, "| `%s` | %d | %.1f ms | %.1f ms | %.2f ms | **%.1f ms** | %.1f MB | %.1f MB | %.1f MB |\n",
			m, n.runs(m), n.cold(m, "load_ms"), n.cold(m, "open_ms"), n.cold(m, "first_call_ms"), n.cold(m, "cold_ms"),
			n.cold(m, "go_side_mb"), n.cold(m, "rss_after_mb"), n.cold(m, "peak_mb"))
	}
	return b.String()
}

// micro formats ns in µs, with more decimals for shorter times.
func micro(ns float64) string {
	switch {
	case ns >= 100e3:
		return fmt.Sprintf("%.0f µs", ns/1e3)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	default:
		return fmt.Sprintf("%.3f µs", ns/1e3)
	}
}

func renderCalls(n *need) string {
	var b strings.Builder
	b.WriteString("| call | Java via binding | Go benchmark | binding overhead |\n|---|---|---|---|\n")
	row := func(what, javaKey, bench string, allocs bool) {
		j, g := n.num(javaKey), n.bench(bench, "ns/op")
		gs := micro(g)
		if allocs {
			gs += fmt.Sprintf(" (%.0f B, %.0f allocs)", n.bench(bench, "B/op"), n.bench(bench, "allocs/op"))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", what, micro(j), gs, micro(j-g))
	}
	row("`privatize` + `getText`, BRR (default)", "call.brr_ns", "BenchmarkPrivatize20Words/brr", true)
	row("`privatize` + `getText`, 1DG", "call.1dg_ns", "BenchmarkPrivatize20Words/1dg", true)
	row("`Mobile.errCode(\"WV_IO: x\")` (trivial call)", "call.errcode_ns", "BenchmarkPrivatizeErrCode", false)
	return b.String()
}

func renderSizes(n *need) string {
	bytes := func(key string) string {
		s := n.str(key)
		// thousands separators, for reading
		var out []byte
		for i := range len(s) {
			if i > 0 && (len(s)-i)%3 == 0 {
				out = append(out, ',')
			}
			out = append(out, s[i])
		}
		return string(out)
	}
	var b strings.Builder
	b.WriteString("| artefact | bytes |\n|---|---|\n")
	fmt.Fprintf(&b, "| host `libgojni.so` (linux/amd64, `-trimpath`, as built by `make test-jvm`) | %s |\n", bytes("size.host_so"))
	fmt.Fprintf(&b, "| the same, `strip --strip-unneeded` | %s |\n", bytes("size.host_so_stripped"))
	fmt.Fprintf(&b, "| `GOOS=android GOARCH=arm64 CGO_ENABLED=0 go build -trimpath -ldflags \"-s -w\"` of a program calling every function of the facade (proxy for the AAR's `jni/arm64-v8a/libgojni.so`) | %s |\n", bytes("size.android_proxy"))
	fmt.Fprintf(&b, "| of which the embedded default asset (`assets/en-glove100-50k.wva`) | %s |\n", bytes("size.asset"))
	return b.String()
}

func renderReadme(n *need) string {
	one, three := n.num("mem.go_side_mb"), n.num("mem.three_mb")
	met := "within"
	if one > budgetMB {
		met = "over"
	}
	return fmt.Sprintf("Go-side resident memory %.1f MB after loading the asset and a first call (%s the %.0f MB budget; %.1f MB with three privatizers alive; measured by `make measure-mobile`)",
		one, met, budgetMB, three)
}
