package main

import (
	"fmt"

	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/alacarte"
	"github.com/wordveil/wordveil/research/internal/assetbuild"
	"github.com/wordveil/wordveil/research/internal/binarize"
)

// assetProjection rebuilds the binarizer an asset built from cfg used on
// src (the words that build kept: the first cfg.Words plain words of the
// source, in order), so that new vectors can be encoded exactly as the
// asset's words were. verifyCodes checks the result against the asset's
// codes.
func assetProjection(src *binarize.Embeddings, cfg assetbuild.Config) (*binarize.Projection, error) {
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

// verifyCodes checks that p encodes every source word the asset holds to
// the asset's code for it. It fails closed: any difference is an error
// naming the first differing word, and an asset sharing no word with src
// is an error too.
func verifyCodes(p *binarize.Projection, src *binarize.Embeddings, a *wva.Asset) error {
	if err := checkSource(src); err != nil {
		return err
	}
	got, err := p.EncodeAll(src)
	if err != nil {
		return fmt.Errorf("%w: %w", alacarte.ErrConfig, err)
	}
	shared := 0
	for i, w := range src.Words {
		id, ok := a.Lookup(w)
		if !ok {
			continue
		}
		shared++
		if got[i] != a.Codes[id] {
			return fmt.Errorf("%w: rebuilt binarizer disagrees with the asset at word %q", alacarte.ErrConfig, w)
		}
	}
	if shared == 0 {
		return fmt.Errorf("%w: the asset shares no word with the source", alacarte.ErrConfig)
	}
	return nil
}

// checkSource refuses a nil or malformed source.
func checkSource(src *binarize.Embeddings) error {
	if src == nil {
		return fmt.Errorf("%w: nil", alacarte.ErrSource)
	}
	if err := src.Validate(); err != nil {
		return fmt.Errorf("%w: %w", alacarte.ErrSource, err)
	}
	return nil
}
