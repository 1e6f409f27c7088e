package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/wordveil/wordveil/core"
)

// recordTail is one line of `privatize -json` output without its first
// key, "text"; docs/CLI_JSON.md and docs/cli-record.schema.json document
// the record. The text, which can be 7 times the size of a long line, is
// written by writeJSONString straight to the output (never into a
// buffer of its own), and the tail, a few hundred bytes, by
// encoding/json. Every number that can be unknown or unbounded is a
// *float64: JSON null, never NaN or ±Inf, which encoding/json refuses (so
// a tail always encodes).
type recordTail struct {
	Mechanism    string         `json:"mechanism"`
	Epsilon      float64        `json:"epsilon"`
	Metric       string         `json:"metric"`
	Asset        recordAsset    `json:"asset"`
	Words        int            `json:"words"`
	OOV          int            `json:"oov"`
	Memoized     int            `json:"memoized"`
	TotalEpsilon *float64       `json:"totalEpsilon"`
	PAvg         *float64       `json:"pAvg"`
	UnitFree     *float64       `json:"unitFree"`
	LossUnknown  *string        `json:"lossUnknown"`
	Ledger       *recordReceipt `json:"ledger"`
	// Classes is present only with -class-epsilon: each word class's ε and
	// counts, whose (words − memoized)·ε sum to totalEpsilon.
	Classes []recordClass `json:"classes,omitempty"`
}

type recordClass struct {
	Class    string  `json:"class"`
	Epsilon  float64 `json:"epsilon"`
	Words    int     `json:"words"`
	Memoized int     `json:"memoized"`
}

type recordAsset struct {
	Name   string `json:"name"`
	Words  int    `json:"words"`
	SHA256 string `json:"sha256"`
}

// recordReceipt is the ledger's state after the block this line (or, for
// a line privatized in parts, its last part) was charged with.
type recordReceipt struct {
	BlockCharge       *float64 `json:"blockCharge"`
	PeriodSpent       *float64 `json:"periodSpent"`
	LifetimeSpent     *float64 `json:"lifetimeSpent"`
	PeriodRemaining   *float64 `json:"periodRemaining"`   // null: no per-period cap
	LifetimeRemaining *float64 `json:"lifetimeRemaining"` // null: no lifetime cap
	// The two above in fresh words at the main ε, rounded down (null: no
	// such cap).
	PeriodWordsRemaining   *int64 `json:"periodWordsRemaining"`
	LifetimeWordsRemaining *int64 `json:"lifetimeWordsRemaining"`
	At                     string `json:"at"` // RFC 3339
}

// finite returns &x, or nil (JSON null) when x is NaN or infinite.
func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// wordsLeft returns &n, or nil (JSON null) when n is −1 (no cap).
func wordsLeft(n int64) *int64 {
	if n < 0 {
		return nil
	}
	return &n
}

func newRecordTail(acc core.Accounting, info core.Info) recordTail {
	rec := recordTail{
		Mechanism: string(acc.Mechanism), Epsilon: acc.Epsilon, Metric: acc.Metric,
		Asset: recordAsset{Name: info.AssetName, Words: info.VocabularySize, SHA256: hex.EncodeToString(info.AssetSHA256[:])},
		Words: acc.Words, OOV: acc.OOV, Memoized: acc.Memoized,
		TotalEpsilon: finite(acc.TotalEpsilon), PAvg: finite(acc.PAvg), UnitFree: finite(acc.UnitFree),
	}
	if acc.LossUnknown != "" {
		reason := acc.LossUnknown
		rec.LossUnknown = &reason
		rec.PAvg, rec.UnitFree = nil, nil
	}
	if l := acc.Ledger; l != nil {
		rec.Ledger = newReceipt(l)
	}
	for _, c := range acc.Classes {
		rec.Classes = append(rec.Classes, recordClass{Class: c.Class, Epsilon: c.Epsilon, Words: c.Words, Memoized: c.Memoized})
	}
	return rec
}

func newReceipt(l *core.Receipt) *recordReceipt {
	return &recordReceipt{
		BlockCharge: finite(l.Amount), PeriodSpent: finite(l.PeriodSpent), LifetimeSpent: finite(l.LifetimeSpent),
		PeriodRemaining: finite(l.PeriodRemaining), LifetimeRemaining: finite(l.LifetimeRemaining),
		PeriodWordsRemaining: wordsLeft(l.PeriodWordsRemaining), LifetimeWordsRemaining: wordsLeft(l.LifetimeWordsRemaining),
		At: l.At.UTC().Format("2006-01-02T15:04:05.000000000Z07:00"),
	}
}

// addAccounting adds a later part's accounting b of the same line to a:
// counts summed, the totals recomputed from them as package core does
// for a whole text, the receipt the later part's (the ledger after its
// charge).
func addAccounting(a *core.Accounting, b core.Accounting) {
	a.Words += b.Words
	a.OOV += b.OOV
	a.Memoized += b.Memoized
	a.TotalEpsilon = float64(a.Words-a.Memoized) * a.Epsilon
	if a.Classes != nil {
		// The same classes in the same order for every text of one
		// privatizer; a copy, so the part's own result is left as it was.
		cs := append([]core.ClassCount(nil), a.Classes...)
		a.TotalEpsilon = 0
		for i := range cs {
			if i < len(b.Classes) && b.Classes[i].Class == cs[i].Class {
				cs[i].Words += b.Classes[i].Words
				cs[i].Memoized += b.Classes[i].Memoized
			}
			a.TotalEpsilon += float64(cs[i].Words-cs[i].Memoized) * cs[i].Epsilon
		}
		a.Classes = cs
	}
	a.UnitFree = a.TotalEpsilon * a.PAvg
	a.Ledger = b.Ledger
}

// recordEncoder writes the output of blocks: the texts as they are, or
// one JSON record per input line. A line privatized in parts (blocks of
// their own) gives one record whose text is written part by part, each
// part after its block's charge, and whose other keys, after the last
// part, sum the parts' accounting.
type recordEncoder struct {
	info core.Info // the privatizer's: the records' asset (with json only)
	json bool
	open bool            // a record's text has been begun and not ended
	acc  core.Accounting // the open record's accounting so far
}

// write writes res, the results of a block's texts, to w. ends(i) says whether
// texts[i] ends its input line.
func (e *recordEncoder) write(w *bufio.Writer, res []core.Result, ends func(i int) bool) error {
	if !e.json {
		for _, r := range res {
			w.WriteString(r.Text)
		}
		return nil
	}
	for i, r := range res {
		if !e.open {
			w.WriteString(`{"text":"`)
			e.open, e.acc = true, r.Accounting
		} else {
			addAccounting(&e.acc, r.Accounting)
		}
		writeJSONString(w, r.Text)
		if !ends(i) {
			continue
		}
		e.open = false
		tail, err := json.Marshal(newRecordTail(e.acc, e.info))
		if err != nil {
			return err // cannot happen: every number is finite or null
		}
		w.WriteString(`",`)
		w.Write(tail[1:])
		w.WriteByte('\n')
	}
	return nil
}

// endsLine reports whether an input text ends its line: it ends with the
// line break, or it is the last text before the end of the input.
func endsLine(text string, last bool) bool {
	return last || strings.HasSuffix(text, "\n")
}

const hexDigits = "0123456789abcdef"

// writeJSONString writes s's JSON string contents (without the quotes)
// to w, escaped exactly as encoding/json does with SetEscapeHTML(false):
// '"' and '\\' and the control bytes escaped (\b \f \n \r \t, others
// \u00XX), invalid UTF-8 as \ufffd, U+2028 and U+2029 as \u2028 and
// \u2029, everything else as it is. Runs of plain bytes go to w as they
// are, so nothing the size of s is allocated.
func writeJSONString(w *bufio.Writer, s string) {
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			w.WriteString(s[start:i])
			switch b {
			case '\\', '"':
				w.WriteByte('\\')
				w.WriteByte(b)
			case '\b':
				w.WriteString(`\b`)
			case '\f':
				w.WriteString(`\f`)
			case '\n':
				w.WriteString(`\n`)
			case '\r':
				w.WriteString(`\r`)
			case '\t':
				w.WriteString(`\t`)
			default:
				w.WriteString(`\u00`)
				w.WriteByte(hexDigits[b>>4])
				w.WriteByte(hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			w.WriteString(s[start:i])
			w.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			w.WriteString(s[start:i])
			w.WriteString(`\u202`)
			w.WriteByte(hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	w.WriteString(s[start:])
}
