package main

import (
	"fmt"

	"github.com/wordveil/wordveil/hamming"
	"github.com/wordveil/wordveil/research/binaryembed"
	"github.com/wordveil/wordveil/research/binaryembed/alacarte"
	"github.com/wordveil/wordveil/research/binaryembed/assetbuild"
)

// assetProjection rebuilds the binarizer an asset built from cfg used on
// src (the words that build kept: the first cfg.Words plain words of the
// source, in order), so that new vectors can be encoded exactly as the
// asset's words were. verifyCodes checks the result against the asset's
// codes.
func assetProjection(src *binaryembed.Embeddings, cfg assetbuild.Config) (*binaryembed.Projection, error) {
	if err := checkSource(src); err != nil {
		return nil, err
	}
	cfg.Progress = nil
	p, err := assetbuild.Projection(src, cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", alacarte.ErrSource, err)
	}
	return p, nil
}

// verifyCodes checks that p encodes every row of src to the corresponding
// code of want (an asset's codes, in the same word order). It fails closed:
// any difference is an error naming the first differing word.
func verifyCodes(p *binaryembed.Projection, src *binaryembed.Embeddings, want []hamming.Code) error {
	if err := checkSource(src); err != nil {
		return err
	}
	if len(want) != src.Len() {
		return fmt.Errorf("%w: %d codes for %d words", alacarte.ErrDim, len(want), src.Len())
	}
	got, err := p.EncodeAll(src)
	if err != nil {
		return fmt.Errorf("%w: %w", alacarte.ErrConfig, err)
	}
	for i := range got {
		if got[i] != want[i] {
			return fmt.Errorf("%w: rebuilt binarizer disagrees with the asset at word %d (%q)", alacarte.ErrConfig, i, src.Words[i])
		}
	}
	return nil
}

// checkSource refuses a nil or malformed source.
func checkSource(src *binaryembed.Embeddings) error {
	if src == nil {
		return fmt.Errorf("%w: nil", alacarte.ErrSource)
	}
	if err := src.Validate(); err != nil {
		return fmt.Errorf("%w: %w", alacarte.ErrSource, err)
	}
	return nil
}
