// Package mobile is WordVeil's API for Android (Kotlin/Java, AAR) and iOS
// (Swift/Objective-C, XCFramework), the only package gomobile binds. It is
// a thin facade over package core:
//
//	cfg := mobile.NewConfig()        // defaults: BRR, "balanced", random-word OOV
//	p, err := mobile.OpenPrivatizer(cfg)   // the embedded English asset
//	r, err := p.Privatize("text typed by the user")
//	upload(r.Text)                   // never the input
//
// Guarantees, on top of core's:
//
//   - Only types gomobile binds cross this API: string, []byte, bool,
//     int64, float64 and pointers to the structs here.
//   - No panic crosses it: every exported function and method recovers
//     and returns an error instead (a Go panic would abort the host app).
//   - Errors start with a stable, machine-readable code followed by ": "
//     (ErrCode lists them), so apps can branch on the code; the rest of
//     the message is for people and may change.
//   - []byte arguments are copied before they are kept.
//   - Randomness is always a CSPRNG keyed from the OS (core.NewSecureSource);
//     there is no way to pass a seed.
//   - A Privatizer is safe for concurrent use from any number of threads.
package mobile
