package ledger

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"math/big"
)

// The ledger file (FileName) is a snapshot followed by an append-only log:
//
//	header   32 bytes: magic "WVLEDGER", version u32, nonce u64,
//	         body length u64, CRC-32C of the preceding 28 bytes
//	body     clock i64, retention i64, ledger id (16 bytes), chain count
//	         u64, chain head (32 bytes), lifetime (u16 length, big-endian
//	         integer in units of 2⁻¹⁰⁷⁴), n u64, n × (time i64,
//	         amount f64), m u32, m × (name length u8, id length u8, name,
//	         id)
//	         then the CRC-32C of nonce‖body, u32
//	records  32-byte slots, each ending in the CRC-32C of
//	         nonce‖offset‖its first 28 bytes
//
// All integers are little-endian except the lifetime. The nonce is drawn
// afresh for every snapshot, and every slot's checksum covers the nonce and
// the slot's own offset, so a slot copied to another place, or left over
// from an older file in a reused disk block, does not verify.
//
// The chain (version 3) lets an Anchor kept outside the file notice a
// rollback (anchor.go): the ledger id is random, made with the ledger;
// head₀ = SHA-256("wordveil ledger chain" ‖ id), and every record appended
// to the log (a charge, a retention, a binding with its continuations)
// advances it: count+1, head = SHA-256(head ‖ the record's slots). A
// snapshot carries the count and head of the log it summarizes.
// Version 2 files (no id, count or head) are read and rewritten as
// version 3 snapshots on Open.
//
// Slot kinds (byte 0): 'C' a charge (time i64, amount f64), 'R' a wider
// retention window (ns i64), 'B' a binding (name length, id length, then
// the first bytes of name‖id) continued by 'D' slots of 27 bytes each.
// Unused bytes are zero. Every record is whole slots, so a record cut short
// by a crash is recognised without trusting any of its bytes.

const (
	magic       = "WVLEDGER"
	version     = 3
	versionV2   = 2 // no chain; rewritten as version 3 on Open
	ledgerIDLen = 16
	headerSize  = 32
	slotSize    = 32
	slotData    = slotSize - 4 // bytes covered by the slot checksum
	maxName     = 64
	maxID       = 255
	bindHead    = slotData - 3 // name‖id bytes in the 'B' slot
	bindMore    = slotData - 1 // name‖id bytes in each 'D' slot
	maxBindSize = slotSize * (1 + (maxName+maxID-bindHead+bindMore-1)/bindMore)
	maxBodySize = 256 << 20 // ~16M live charges; bounds the memory a bad header can ask for
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// maxTotal is MaxFloat64 in units of 2⁻¹⁰⁷⁴: no total may exceed it, so
// every total rounds to a finite float64.
var maxTotal = scaled(new(big.Int), math.MaxFloat64)

func slotSum(nonce uint64, off int64, s []byte) uint32 {
	var p [16]byte
	binary.LittleEndian.PutUint64(p[:8], nonce)
	binary.LittleEndian.PutUint64(p[8:], uint64(off))
	return crc32.Update(crc32.Checksum(p[:], castagnoli), castagnoli, s[:slotData])
}

func sealSlot(nonce uint64, off int64, s []byte) {
	binary.LittleEndian.PutUint32(s[slotData:], slotSum(nonce, off, s))
}

// chargeSlot encodes a charge record to be written at offset off.
func chargeSlot(nonce uint64, off int64, c charge) []byte {
	s := make([]byte, slotSize)
	s[0] = 'C'
	binary.LittleEndian.PutUint64(s[1:], uint64(c.at))
	binary.LittleEndian.PutUint64(s[9:], math.Float64bits(c.amount))
	sealSlot(nonce, off, s)
	return s
}

// retentionSlot encodes a wider retention window.
func retentionSlot(nonce uint64, off int64, ns int64) []byte {
	s := make([]byte, slotSize)
	s[0] = 'R'
	binary.LittleEndian.PutUint64(s[1:], uint64(ns))
	sealSlot(nonce, off, s)
	return s
}

// bindSlots encodes a binding as a 'B' slot and its 'D' continuations.
func bindSlots(nonce uint64, off int64, name, id string) []byte {
	data := name + id
	n := 1
	if len(data) > bindHead {
		n += (len(data) - bindHead + bindMore - 1) / bindMore
	}
	b := make([]byte, n*slotSize)
	b[0], b[1], b[2] = 'B', byte(len(name)), byte(len(id))
	k := copy(b[3:slotData], data)
	sealSlot(nonce, off, b[:slotSize])
	for i := 1; i < n; i++ {
		s := b[i*slotSize : (i+1)*slotSize]
		s[0] = 'D'
		k += copy(s[1:slotData], data[k:])
		sealSlot(nonce, off+int64(i*slotSize), s)
	}
	return b
}

// encodeSnapshot returns a complete file holding st's live state, under
// nonce.
func encodeSnapshot(st *state, nonce uint64) []byte {
	live := st.win.live()
	life := st.life.v.Bytes()
	body := make([]byte, 0, 32+len(life)+16*len(live)+len(st.bindings)*(2+maxName+maxID))
	body = binary.LittleEndian.AppendUint64(body, uint64(st.clock))
	body = binary.LittleEndian.AppendUint64(body, uint64(st.retention))
	body = append(body, st.id[:]...)
	body = binary.LittleEndian.AppendUint64(body, st.seq)
	body = append(body, st.head[:]...)
	body = binary.LittleEndian.AppendUint16(body, uint16(len(life)))
	body = append(body, life...)
	body = binary.LittleEndian.AppendUint64(body, uint64(len(live)))
	for _, c := range live {
		body = binary.LittleEndian.AppendUint64(body, uint64(c.at))
		body = binary.LittleEndian.AppendUint64(body, math.Float64bits(c.amount))
	}
	body = binary.LittleEndian.AppendUint32(body, uint32(len(st.bindings)))
	for _, name := range sortedKeys(st.bindings) {
		id := st.bindings[name]
		body = append(body, byte(len(name)), byte(len(id)))
		body = append(body, name...)
		body = append(body, id...)
	}
	out := make([]byte, headerSize, headerSize+len(body)+4)
	copy(out, magic)
	binary.LittleEndian.PutUint32(out[8:], version)
	binary.LittleEndian.PutUint64(out[12:], nonce)
	binary.LittleEndian.PutUint64(out[20:], uint64(len(body)))
	binary.LittleEndian.PutUint32(out[28:], crc32.Checksum(out[:28], castagnoli))
	out = append(out, body...)
	return binary.LittleEndian.AppendUint32(out, bodySum(nonce, body))
}

func bodySum(nonce uint64, body []byte) uint32 {
	var p [8]byte
	binary.LittleEndian.PutUint64(p[:], nonce)
	return crc32.Update(crc32.Checksum(p[:], castagnoli), castagnoli, body)
}

// parseHeader checks a file's first 32 bytes and returns its nonce,
// snapshot body length and version (3, or 2 to be rewritten).
func parseHeader(h []byte) (nonce uint64, bodyLen int64, ver uint32, err error) {
	switch {
	case len(h) < headerSize || string(h[:8]) != magic:
		return 0, 0, 0, fmt.Errorf("%w: not a ledger file", ErrCorrupt)
	case binary.LittleEndian.Uint32(h[28:]) != crc32.Checksum(h[:28], castagnoli):
		return 0, 0, 0, fmt.Errorf("%w: header checksum", ErrCorrupt)
	}
	ver = binary.LittleEndian.Uint32(h[8:])
	if ver != version && ver != versionV2 {
		return 0, 0, 0, fmt.Errorf("%w: version %d, want %d", ErrCorrupt, ver, version)
	}
	n := binary.LittleEndian.Uint64(h[20:])
	if n > maxBodySize {
		return 0, 0, 0, fmt.Errorf("%w: snapshot of %d bytes", ErrCorrupt, n)
	}
	return binary.LittleEndian.Uint64(h[12:]), int64(n), ver, nil
}

// parseSnapshot decodes a checksummed body of version ver into a fresh
// state. A version 2 body has no chain: it gets a new ledger id and the
// chain starts afresh (st.v2 says the file must be rewritten).
func parseSnapshot(ver uint32, nonce uint64, body []byte, sum uint32, period int64) (*state, error) {
	if bodySum(nonce, body) != sum {
		return nil, fmt.Errorf("%w: snapshot checksum", ErrCorrupt)
	}
	d := decoder{b: body}
	st := newState(period)
	st.nonce = nonce
	st.clock = int64(d.u64())
	st.retention = int64(d.u64())
	if ver == versionV2 {
		st.v2, st.id = true, newLedgerID()
		st.head = chainStart(st.id)
	} else {
		st.id = [ledgerIDLen]byte(d.bytes(ledgerIDLen))
		st.seq = d.u64()
		st.head = [32]byte(d.bytes(32))
	}
	st.life.v.SetBytes(d.bytes(int(d.u16())))
	n := d.u64()
	if d.bad || n > uint64(len(d.b))/16 {
		return nil, fmt.Errorf("%w: snapshot truncated", ErrCorrupt)
	}
	if st.retention < 0 || st.retention > int64(maxPeriod) {
		return nil, fmt.Errorf("%w: retention %d", ErrCorrupt, st.retention)
	}
	if st.life.v.Cmp(maxTotal) > 0 {
		return nil, fmt.Errorf("%w: lifetime total out of range", ErrCorrupt)
	}
	var inWindow exactSum
	prev := int64(math.MinInt64)
	for range n {
		c := charge{at: int64(d.u64()), amount: math.Float64frombits(d.u64())}
		if err := validCharge(c, prev); err != nil {
			return nil, err
		}
		if c.at > st.clock {
			return nil, fmt.Errorf("%w: a charge after the ledger's clock", ErrCorrupt)
		}
		prev = c.at
		inWindow.add(c.amount)
		st.win.push(c)
	}
	// The lifetime includes every charge still in the window.
	if inWindow.v.Cmp(&st.life.v) > 0 {
		return nil, fmt.Errorf("%w: lifetime below the charges it includes", ErrCorrupt)
	}
	m := d.u32()
	for i := uint32(0); i < m && !d.bad; i++ {
		nl, il := int(d.u8()), int(d.u8())
		name, id := string(d.bytes(nl)), string(d.bytes(il))
		if d.bad {
			break
		}
		if err := st.bind(name, id); err != nil {
			return nil, err
		}
	}
	if d.bad || len(d.b) != 0 {
		return nil, fmt.Errorf("%w: snapshot length", ErrCorrupt)
	}
	st.records = int(n) + int(m)
	return st, nil
}

// validCharge checks a stored charge: a finite amount ≥ 0 (a negative one
// would hand budget back), at or after the previous one.
func validCharge(c charge, prev int64) error {
	if badAmount(c.amount) {
		return fmt.Errorf("%w: charge of %v", ErrCorrupt, c.amount)
	}
	if c.at < prev {
		return fmt.Errorf("%w: charge times go backwards", ErrCorrupt)
	}
	return nil
}

// badAmount reports an amount that is not finite and ≥ 0 (−0 included:
// stored amounts are canonical).
func badAmount(x float64) bool {
	return math.Float64bits(x)>>63 != 0 || math.IsNaN(x) || math.IsInf(x, 0)
}

// decoder reads little-endian fields; past the end it sets bad and yields
// zeros.
type decoder struct {
	b   []byte
	bad bool
}

func (d *decoder) bytes(n int) []byte {
	if n > len(d.b) {
		d.bad, d.b = true, nil
		return make([]byte, n) // n ≤ 65535 here
	}
	p := d.b[:n]
	d.b = d.b[n:]
	return p
}
func (d *decoder) u8() uint8   { return d.bytes(1)[0] }
func (d *decoder) u16() uint16 { return binary.LittleEndian.Uint16(d.bytes(2)) }
func (d *decoder) u32() uint32 { return binary.LittleEndian.Uint32(d.bytes(4)) }
func (d *decoder) u64() uint64 { return binary.LittleEndian.Uint64(d.bytes(8)) }
