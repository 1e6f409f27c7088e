package study

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
)

// Record is one line of the results file.
type Record struct {
	// Kind is "accuracy" (one training run), "baseline" (trained on the
	// original TR1), "deniability" (N_w, S_w at one grid point) or
	// "ratio" (a privacy ratio of the asset).
	Kind      string `json:"kind"`
	Mechanism string `json:"mechanism,omitempty"`
	Family    string `json:"family,omitempty"`
	// EpsIndex is the grid index; Epsilon the ε in the mechanism's own
	// units; Matched the Euclidean ε it is compared with (absent for
	// word-level DP mechanisms).
	EpsIndex int      `json:"eps_index"`
	Epsilon  float64  `json:"epsilon,omitempty"`
	Matched  *float64 `json:"matched,omitempty"`
	Run      int      `json:"run"`

	Accuracy float64 `json:"accuracy,omitempty"`
	Draws    int     `json:"draws,omitempty"` // mechanism draws used
	PoolK    int     `json:"pool_k,omitempty"`
	NW       float64 `json:"n_w,omitempty"`
	SW       float64 `json:"s_w,omitempty"`
	Seconds  float64 `json:"seconds,omitempty"`

	// Ratio fields (Kind "ratio").
	Metric string  `json:"metric,omitempty"`
	Avg    float64 `json:"avg,omitempty"`
	AvgLo  float64 `json:"avg_lo,omitempty"`
	AvgHi  float64 `json:"avg_hi,omitempty"`
	Max    float64 `json:"max,omitempty"`
	Exact  bool    `json:"exact,omitempty"`

	// Fingerprint identifies the configuration the record was made with;
	// records of another configuration are not reused. For accuracy and
	// deniability records it covers the common configuration and the
	// record's own mechanism spec only; for ratio and baseline records,
	// the common configuration (Config).
	Fingerprint string `json:"fingerprint"`
	// Config is the common configuration's fingerprint (asset content,
	// corpora, seed, classifier, deniability protocol), shared by every
	// record of a run; absent in files written before it existed.
	Config string `json:"config,omitempty"`
}

func (r Record) key() string {
	return fmt.Sprintf("%s/%s/%d/%d/%s", r.Kind, r.Mechanism, r.EpsIndex, r.Run, r.Metric)
}

// ReadRecords reads a results file of the IMDB study; a missing file has
// no records.
func ReadRecords(path string) ([]Record, error) { return readLines[Record](path) }

// ReadEmpirical reads a results file of the empirical study.
func ReadEmpirical(path string) ([]EmpiricalRecord, error) {
	return readLines[EmpiricalRecord](path)
}

// readLines reads a JSON-lines file; a missing file has no lines, and a
// line that does not parse (a crash mid-write) is skipped.
func readLines[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		var r T
		if json.Unmarshal(sc.Bytes(), &r) == nil {
			out = append(out, r)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read results %s: %w", path, err)
	}
	return out, nil
}

// appender appends records to the results file, one line each, synced, so
// every finished cell survives an interruption.
type appender struct {
	mu sync.Mutex
	f  *os.File
}

func openAppender(path string) (*appender, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open results: %w", err)
	}
	// A crash mid-write can leave a last line without its newline; end it
	// so the next record starts on a line of its own.
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		last := make([]byte, 1)
		if r, err := os.Open(path); err == nil {
			_, err = r.ReadAt(last, st.Size()-1)
			r.Close()
			if err == nil && last[0] != '\n' {
				if _, err := f.Write([]byte{'\n'}); err != nil {
					f.Close()
					return nil, fmt.Errorf("open results: %w", err)
				}
			}
		}
	}
	return &appender{f: f}, nil
}

func (a *appender) add(r any) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, err := a.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("append result: %w", err)
	}
	return a.f.Sync()
}

func (a *appender) close() error { return a.f.Close() }

// ReadLines reads a JSON-lines results file of any record type as the
// study reads its own: a missing file has no lines, a line that does not
// parse (a crash mid-write) is skipped.
func ReadLines[T any](path string) ([]T, error) { return readLines[T](path) }

// Appender appends records to a JSON-lines results file, one synced line
// each, as the study does (safe for concurrent use).
type Appender struct{ a *appender }

// OpenAppender opens (or creates) a results file for appending, ending a
// last line a crash left without its newline.
func OpenAppender(path string) (*Appender, error) {
	a, err := openAppender(path)
	if err != nil {
		return nil, err
	}
	return &Appender{a}, nil
}

// Add appends one record.
func (a *Appender) Add(r any) error { return a.a.add(r) }

// Close closes the file.
func (a *Appender) Close() error { return a.a.close() }
