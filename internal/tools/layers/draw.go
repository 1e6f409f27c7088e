package main

import (
	"fmt"
	"slices"
	"strings"
)

// draw returns the README's Layout block (without its fences): the layers
// top to bottom with one line per package, the import matrix, the named
// exceptions, and the rest of the repository. It depends on the data only,
// so the README can be checked against it byte for byte.
func draw() string {
	var b strings.Builder
	width := 0
	for _, l := range layers {
		for _, p := range l.pkgs {
			width = max(width, len(display(p.path)))
		}
	}
	for _, p := range other {
		width = max(width, len(p.path))
	}
	width += 2

	b.WriteString("The SDK module's packages by layer, top to bottom\n")
	for _, l := range layers {
		fmt.Fprintf(&b, "\n%s: %s\n", l.name, l.what)
		for _, p := range l.pkgs {
			fmt.Fprintf(&b, "  %-*s%s\n", width, display(p.path), p.what)
		}
	}

	b.WriteString("\nWhat each layer may import (● its code and tests, t its tests only)\n\n")
	cols := make([]string, len(layers))
	for i, l := range layers {
		cols[i] = short(l.name)
	}
	rowWidth := 0
	for _, l := range layers {
		rowWidth = max(rowWidth, len(l.name))
	}
	fmt.Fprintf(&b, "%-*s", rowWidth+2, "")
	for _, c := range cols {
		fmt.Fprintf(&b, " %s", c)
	}
	b.WriteString("\n")
	for _, from := range layers {
		line := fmt.Sprintf("%-*s", rowWidth+2, from.name)
		for i, to := range layers {
			mark := " "
			switch {
			case slices.Contains(from.may, to.name) || (from.name == to.name && from.self):
				mark = "●"
			case slices.Contains(from.tests, to.name) || from.name == to.name:
				mark = "t"
			}
			line += " " + center(mark, len(cols[i]))
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}

	b.WriteString("\n")
	for _, e := range exceptions {
		fmt.Fprintf(&b, "allowed by name: %s → %s: %s\n", display(e.from), display(e.to), e.why)
	}
	for _, to := range sortedKeys(restricted) {
		var who []string
		for _, from := range restricted[to] {
			who = append(who, display(from))
		}
		fmt.Fprintf(&b, "outside tests, only these import %s: %s\n", display(to), strings.Join(who, ", "))
	}

	b.WriteString("\nThe rest of the repository\n\n")
	for _, p := range other {
		fmt.Fprintf(&b, "  %-*s%s\n", width, p.path, p.what)
	}
	return b.String()
}

// display is a package path as the drawing shows it.
func display(path string) string {
	if path == "." {
		return "./ (wordveil)"
	}
	return path + "/"
}

// short is a layer's column heading in the matrix.
func short(name string) string {
	switch name {
	case support:
		return "support"
	case composition:
		return "compos."
	case verification:
		return "verif."
	}
	return name
}

// center pads s, one character wide, to width w.
func center(s string, w int) string {
	left := (w - 1) / 2
	return strings.Repeat(" ", left) + s + strings.Repeat(" ", w-1-left)
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
