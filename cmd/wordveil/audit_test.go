package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"strings"
	"testing"
)

func TestAuditCmd(t *testing.T) {
	var out, errb bytes.Buffer
	if err := auditCmd(nil, &out, &errb); err != nil {
		t.Fatalf("audit: %v\n%s%s", err, out.String(), errb.String())
	}
	s := out.String()
	if testing.Verbose() {
		t.Log("\n" + s)
	}
	for _, want := range []string{"BRR", "TEMHamming", "TEM γ=", "1-DG", "1-DT", "asset first 48", "synthetic",
		"PASS", "expected violation: caught", "negative controls caught"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "FAIL") || strings.Contains(s, "NOT CAUGHT") {
		t.Errorf("output reports a failure:\n%s", s)
	}
}

func TestAuditCmdJSON(t *testing.T) {
	var out, errb bytes.Buffer
	if err := auditCmd([]string{"-words", "12", "-json"}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	var v struct {
		OK      bool `json:"ok"`
		Words   int  `json:"words"`
		Results []struct {
			Mechanism string `json:"mechanism"`
			Control   bool   `json:"control"`
			OK        bool   `json:"ok"`
			Report    struct {
				Excess any `json:"excess"`
			} `json:"report"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	controls, infinite := 0, 0
	for _, r := range v.Results {
		if !r.OK {
			t.Errorf("%s not ok", r.Mechanism)
		}
		if r.Control {
			controls++
		}
		if r.Report.Excess == "+Inf" {
			infinite++
		}
	}
	if !v.OK || v.Words != 12 || controls < 5 || infinite == 0 {
		t.Errorf("ok=%v words=%d controls=%d infinite=%d", v.OK, v.Words, controls, infinite)
	}
}

func TestAuditCmdUsage(t *testing.T) {
	for _, args := range [][]string{{"-words", "1"}, {"-words", "100000"}, {"extra"}} {
		var out, errb bytes.Buffer
		if err := auditCmd(args, &out, &errb); !errors.Is(err, errUsage) {
			t.Errorf("audit %v: err = %v, want a usage error", args, err)
		}
	}
	var out, errb bytes.Buffer
	if err := auditCmd([]string{"-bogus"}, &out, &errb); err == nil || errors.Is(err, flag.ErrHelp) {
		t.Errorf("audit -bogus: err = %v", err)
	}
	if err := auditCmd([]string{"-h"}, &out, &errb); !errors.Is(err, flag.ErrHelp) || !strings.Contains(errb.String(), "-words") {
		t.Errorf("audit -h: err = %v, stderr %q", err, errb.String())
	}
	if err := auditCmd([]string{"-asset", "/nonexistent.wva"}, &out, &errb); err == nil {
		t.Error("missing asset accepted")
	}
}
