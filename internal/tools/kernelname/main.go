// Command kernelname prints the Hamming distance kernel this machine uses
// (avx512, popcnt, neon or generic), for benchmark reports.
package main

import (
	"fmt"

	"github.com/wordveil/wordveil/internal/hamming"
)

func main() { fmt.Println(hamming.Kernel()) }
