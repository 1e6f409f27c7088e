package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math"

	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/ledger"
	"github.com/wordveil/wordveil/privatize"
)

// record is one line of `privatize -json` output; docs/CLI_JSON.md and
// docs/cli-record.schema.json document it. Every number that can be
// unknown or unbounded is a *float64: JSON null, never NaN or ±Inf, which
// encoding/json refuses (so a record always encodes).
type record struct {
	Text         string         `json:"text"`
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

// recordReceipt is the ledger's state after the block this line was
// charged with (a block of lines shares one charge).
type recordReceipt struct {
	BlockCharge       *float64 `json:"blockCharge"`
	PeriodSpent       *float64 `json:"periodSpent"`
	LifetimeSpent     *float64 `json:"lifetimeSpent"`
	PeriodRemaining   *float64 `json:"periodRemaining"`   // null: no per-period cap
	LifetimeRemaining *float64 `json:"lifetimeRemaining"` // null: no lifetime cap
	At                string   `json:"at"`                // RFC 3339
}

// finite returns &x, or nil (JSON null) when x is NaN or infinite.
func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

func newRecord(r privatize.Result, a *wva.Asset) record {
	acc := r.Accounting
	rec := record{
		Text: r.Text, Mechanism: acc.Mechanism, Epsilon: acc.Epsilon, Metric: acc.Metric,
		Asset: recordAsset{Name: a.Header.Name, Words: a.Len(), SHA256: hex.EncodeToString(a.SHA256[:])},
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

func newReceipt(l *ledger.Receipt) *recordReceipt {
	return &recordReceipt{
		BlockCharge: finite(l.Amount), PeriodSpent: finite(l.PeriodSpent), LifetimeSpent: finite(l.LifetimeSpent),
		PeriodRemaining: finite(l.PeriodRemaining), LifetimeRemaining: finite(l.LifetimeRemaining),
		At: l.At.UTC().Format("2006-01-02T15:04:05.000000000Z07:00"),
	}
}

// recordEncoder writes a block's output: the texts as they are, or one
// JSON record per text.
type recordEncoder struct {
	asset *wva.Asset
	json  bool
}

func (e recordEncoder) encode(buf *bytes.Buffer, res []privatize.Result) error {
	if !e.json {
		for _, r := range res {
			buf.WriteString(r.Text)
		}
		return nil
	}
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	for _, r := range res {
		if err := enc.Encode(newRecord(r, e.asset)); err != nil {
			return err
		}
	}
	return nil
}
