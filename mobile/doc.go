// Package mobile is WordVeil's API for Android (Kotlin/Java, AAR) and iOS
// (Swift/Objective-C, XCFramework), the only package gomobile binds. It is
// a thin adapter over package core [github.com/wordveil/wordveil]:
// [OpenPrivatizer] turns a [Config] of gomobile-bindable fields into a
// core.Config and calls core.Open, so the binding, the CLI and Go
// callers share one composition, one validation and one error
// classification (the codes below map wordveil's error categories):
//
//	cfg := mobile.NewConfig()        // defaults: BRR, "balanced", random-word OOV
//	p, err := mobile.OpenPrivatizer(cfg)   // the embedded English asset
//	r, err := p.Privatize("text typed by the user")
//	upload(r.Text)                   // never the input
//	p.Close()                        // when the keyboard goes away
//
// Guarantees, on top of theirs:
//
//   - Only types gomobile binds cross this API: string, []byte, bool,
//     int64, float64 and pointers to the structs here.
//   - No panic crosses it: every exported function and method starts by
//     deferring a recover, and returns a WV_INTERNAL error, or the zero
//     value its doc comment names, instead (a Go panic would abort the
//     host app). This holds on nil and zero-value handles too, which
//     gobind lets Java and Swift make (new Privatizer()): their methods
//     return WV_INVALID_ARGUMENT or their documented zero value.
//   - Errors start with a stable, machine-readable code followed by ": ",
//     exactly once (ErrCode lists the codes), so apps can branch on the
//     code; the rest of the message is for people and may change. An
//     error no layer below documents is WV_INTERNAL, never guessed as
//     WV_IO.
//   - Every numeric Config field is range-checked before use, overflow-
//     safe; a value out of range, or a cap without a LedgerDir, is
//     refused with WV_INVALID_ARGUMENT, never ignored or wrapped around.
//   - []byte arguments are copied before they are kept.
//   - Randomness is always a CSPRNG keyed from the OS (inside
//     core.Open); there is no way to pass a seed.
//   - A Privatizer is safe for concurrent use from any number of threads.
//   - Close releases a Privatizer's memo file, ledger and decoded data
//     without waiting for the Java or Swift object's finalizer; every
//     later call returns WV_CLOSED, never a crash, also while other
//     threads are calling it.
//
// It does not guarantee that the binding survives a crash outside Go (a
// JNI or Objective-C misuse), nor that a call is cheap: Privatize's time
// is linear in the text, which Config.MaxTextBytes bounds.
package mobile
