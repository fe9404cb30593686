package library

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"strconv"

	"github.com/redis/go-redis/v9"

	"thesischeck/similarity"
)

// redisSimsCache is how many documents' SimHashes a library on Redis keeps (8 bytes a paragraph).
const redisSimsCache = 1 << 17

// Postings of grams held by redisPostsMin paragraphs or more are kept, up to redisPostsCache
// postings (8 bytes each): at 10,000 documents, reading and counting the same common grams' sets
// again for each paragraph was most of a thesis's check (2.9 s of 600 paragraphs).
const (
	redisPostsMin   = 64
	redisPostsCache = 4 << 20
)

// cacheDoc keeps what never changes of a document; cacheMu is held.
func (s *redisStore) cacheDoc(info DocInfo, sig similarity.Signature, fps []fingerprint) {
	keep(s.infos, 4096, info.ID, redisDoc{info, sig})
	if fps != nil {
		sims := make([]uint64, len(fps))
		for i, f := range fps {
			sims[i] = f.SimHash
		}
		keep(s.sims, redisSimsCache, info.ID, sims)
	}
	keep(s.kinds, redisSimsCache, info.ID, info.Thesis)
}

// simsOf returns the SimHashes of the paragraphs of docs (distinct), from the cache or in one round
// trip; a document that is not in the library (removed meanwhile) has none.
func (s *redisStore) simsOf(ctx context.Context, docs []uint64) (map[uint64][]uint64, error) {
	out := make(map[uint64][]uint64, len(docs))
	s.cacheMu.Lock()
	miss := cached(s.sims, docs, out)
	s.cacheMu.Unlock()
	if len(miss) == 0 {
		return out, nil
	}
	cmds := make([]*redis.StringCmd, len(miss))
	if _, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, d := range miss {
			cmds[i] = p.Get(ctx, redisSimsKey(d))
		}
		return nil
	}); err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	for i, c := range cmds {
		if errors.Is(c.Err(), redis.Nil) {
			continue
		}
		b := []byte(c.Val())
		if len(b)%8 != 0 {
			return nil, fmt.Errorf("document %d: SimHashes of %d bytes: %w", miss[i], len(b), errRedisDamaged)
		}
		sims := make([]uint64, len(b)/8)
		for j := range sims {
			sims[j] = binary.LittleEndian.Uint64(b[8*j:])
		}
		out[miss[i]] = sims
		keep(s.sims, redisSimsCache, miss[i], sims)
	}
	return out, nil
}

// members reads postings: the members of a set as integers.
func members(c *redis.StringSliceCmd) ([]uint64, error) {
	out := make([]uint64, 0, len(c.Val()))
	for _, v := range c.Val() {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("posting %q: %w", v, errRedisDamaged)
		}
		out = append(out, n)
	}
	return out, nil
}

// Candidates ranks as a folder's (index.go) does: the same gram weights, cut, minimum of hits and
// near SimHashes, the same order. The count of a gram is the size of its set, the paragraphs of the
// library that hold it.
func (s *redisStore) Candidates(grams []uint32, simhash uint64, maxHamming, minHits, limit int) []Candidate {
	out, err := s.candidates(context.Background(), grams, simhash, maxHamming, minHits, limit)
	if err != nil {
		s.fail(err)
	}
	return out
}

func (s *redisStore) candidates(ctx context.Context, grams []uint32, simhash uint64, maxHamming, minHits, limit int) ([]Candidate, error) {
	uniq := similarity.SortedSet(slices.Clone(grams))
	withNear := simhash != 0 && maxHamming >= 0
	counts := make([]*redis.IntCmd, len(uniq))
	var blocks [4]*redis.StringSliceCmd
	var gen *redis.StringCmd
	if _, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		gen = p.HGet(ctx, keyRedisMeta, "gen")
		for i, g := range uniq {
			counts[i] = p.SCard(ctx, redisGramKey(g))
		}
		if withNear {
			for b, k := range similarity.Blocks(simhash) {
				blocks[b] = p.SMembers(ctx, redisBlockKey(b, k))
			}
		}
		return nil
	}); err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	// The postings of the grams that count as evidence: held by at least one paragraph, by no more
	// than maxPostings; common ones from the cache.
	type gramPosts struct {
		g      uint32
		weight uint32
		cached []uint64
		set    *redis.StringSliceCmd
	}
	var evidence []gramPosts
	size := 0
	s.cacheMu.Lock()
	if gen.Val() != s.gen {
		s.resetCaches(gen.Val())
	}
	for i, g := range uniq {
		if n := int(counts[i].Val()); n > 0 && n <= s.maxPostings {
			gp := gramPosts{g: g, weight: gramWeight(n, s.maxPostings)}
			if ps, ok := s.posts[g]; ok && len(ps) == n {
				gp.cached = ps
			}
			evidence = append(evidence, gp)
			size += n
		}
	}
	s.cacheMu.Unlock()
	if _, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i := range evidence {
			if evidence[i].cached == nil {
				evidence[i].set = p.SMembers(ctx, redisGramKey(evidence[i].g))
			}
		}
		return nil
	}); err != nil {
		return nil, err
	}
	// Hits are counted as a folder counts them (hitCounter): the postings gathered with their
	// weight in the low bits and sorted, each paragraph's a run. A map of counters took a third of
	// the client's CPU in a thesis's check against 10,000 documents.
	pairs := make([]uint64, 0, size)
	var top64 uint64
	for _, e := range evidence {
		ms := e.cached
		if ms == nil {
			var err error
			if ms, err = members(e.set); err != nil {
				return nil, err
			}
			if len(ms) >= redisPostsMin {
				s.keepPostings(gen.Val(), e.g, ms)
			}
		}
		for _, m := range ms {
			top64 |= m
			pairs = append(pairs, m<<redisWeightBits|uint64(e.weight))
		}
	}
	if top64 >= 1<<(64-redisWeightBits) {
		return nil, fmt.Errorf("posting %d: %w", top64, errRedisDamaged)
	}
	pairs, _ = sortBits(pairs, nil, redisWeightBits, bits.Len64(top64))
	type cand struct {
		m           uint64
		hits, score uint32
	}
	var hits []cand // every paragraph hit, by m
	for i := 0; i < len(pairs); {
		c := cand{m: pairs[i] >> redisWeightBits}
		for ; i < len(pairs) && pairs[i]>>redisWeightBits == c.m; i++ {
			c.hits++
			c.score += uint32(pairs[i] & (1<<redisWeightBits - 1))
		}
		hits = append(hits, c)
	}
	hitOf := func(m uint64) cand {
		if i, ok := slices.BinarySearchFunc(hits, m, func(c cand, m uint64) int { return cmp.Compare(c.m, m) }); ok {
			return hits[i]
		}
		return cand{m: m}
	}
	var near []uint64 // paragraphs sharing a SimHash block with the query, to be measured
	for _, b := range blocks {
		if b == nil {
			continue
		}
		ms, err := members(b)
		if err != nil {
			return nil, err
		}
		near = append(near, ms...)
	}
	slices.Sort(near)
	near = slices.Compact(near)
	var enough []cand // paragraphs with minHits
	maxScore := uint32(0)
	for _, c := range hits {
		if int(c.hits) >= minHits {
			enough = append(enough, c)
			maxScore = max(maxScore, c.score)
		}
	}
	// Only paragraphs that score at least as well as the limit-th best can be among the best
	// limit (found from a histogram of the scores, as the folder's floor is: sorting them all cost
	// more than the rest): their documents' SimHashes are read, and those of the near paragraphs.
	// A document removed meanwhile has none: the floor is found again without it.
	gone := map[uint64]bool{}
	var sims map[uint64][]uint64
	floor := uint32(0)
	var hist []int
	for {
		floor = 0
		if limit > 0 && len(enough) >= limit {
			hist = append(hist[:0], make([]int, maxScore+1)...)
			for _, c := range enough {
				if !gone[c.m>>redisParaBits] {
					hist[c.score]++
				}
			}
			for n, sc := 0, int(maxScore); sc > 0; sc-- {
				if n += hist[sc]; n >= limit {
					floor = uint32(sc)
					break
				}
			}
		}
		var docs []uint64
		for _, c := range enough {
			if c.score >= floor {
				docs = append(docs, c.m>>redisParaBits)
			}
		}
		for _, m := range near {
			docs = append(docs, m>>redisParaBits)
		}
		slices.Sort(docs)
		docs = slices.Compact(docs)
		var err error
		if sims, err = s.simsOf(ctx, docs); err != nil {
			return nil, err
		}
		more := false
		for _, d := range docs {
			if _, ok := sims[d]; !ok && !gone[d] {
				gone[d], more = true, true
			}
		}
		if !more {
			break
		}
	}
	simOf := func(m uint64) (uint64, bool) {
		r := redisRef(m)
		ps, ok := sims[r.Doc]
		if !ok || r.Para >= len(ps) {
			return 0, false
		}
		return ps[r.Para], true
	}
	top := candHeap{limit: limit}
	for _, c := range enough {
		if c.score < floor {
			continue
		}
		if sim, ok := simOf(c.m); ok {
			top.offer(Candidate{ParaRef: redisRef(c.m), Hits: int(c.hits), Score: int(c.score), Hamming: similarity.Hamming(simhash, sim)})
		}
	}
	for _, m := range near {
		c := hitOf(m)
		if int(c.hits) >= minHits {
			continue // offered above
		}
		if sim, ok := simOf(m); ok && similarity.Hamming(simhash, sim) <= maxHamming {
			top.offer(Candidate{ParaRef: redisRef(m), Hits: int(c.hits), Score: int(c.score), Hamming: similarity.Hamming(simhash, sim)})
		}
	}
	out := top.c
	sort.Slice(out, func(i, j int) bool { return better(out[i], out[j]) })
	return out, nil
}

// keepPostings caches the postings of gram g, read while the library's gen was gen.
func (s *redisStore) keepPostings(gen string, g uint32, ms []uint64) {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	if gen != s.gen {
		return // the library changed meanwhile
	}
	if s.postsN+len(ms) > redisPostsCache {
		s.posts, s.postsN = map[uint32][]uint64{}, 0
	}
	s.posts[g] = ms
	s.postsN += len(ms)
}

// SimHash returns the stored SimHash of a library paragraph (0 when there is none).
func (s *redisStore) SimHash(r ParaRef) uint64 {
	sims, err := s.simsOf(context.Background(), []uint64{r.Doc})
	if err != nil {
		s.fail(err)
		return 0
	}
	ps := sims[r.Doc]
	if r.Para < 0 || r.Para >= len(ps) {
		return 0
	}
	return ps[r.Para]
}

// SimilarDocuments returns the documents whose MinHash signature shares an LSH band with sig.
func (s *redisStore) SimilarDocuments(sig *similarity.Signature) []uint64 {
	ctx := context.Background()
	var cmds []*redis.StringSliceCmd
	if _, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, k := range sig.BandKeys() {
			cmds = append(cmds, p.SMembers(ctx, redisBandKey(k)))
		}
		return nil
	}); err != nil {
		s.fail(err)
		return nil
	}
	var out []uint64
	for _, c := range cmds {
		ids, err := members(c)
		if err != nil {
			s.fail(err)
			return nil
		}
		out = append(out, ids...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Warm does nothing: a Redis library's boilerplate verdicts come from the server, query by query.
func (s *redisStore) Warm() {}

// Boilerplate answers as a folder's does: the share of the winnowed grams that at least minDocs
// documents of the kind hold. Its verdicts are cached until the library changes (meta "gen").
func (s *redisStore) Boilerplate(grams []uint32, minDocs int, thesis bool) float64 {
	v, err := s.boilerplate(context.Background(), similarity.Winnow(grams, winnowWindow), minDocs, thesis)
	if err != nil {
		s.fail(err)
	}
	return v
}

func (s *redisStore) boilerplate(ctx context.Context, grams []uint32, minDocs int, thesis bool) (float64, error) {
	var meta *redis.SliceCmd
	var theses *redis.IntCmd
	counts := make([]*redis.IntCmd, len(grams))
	if _, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		meta = p.HMGet(ctx, keyRedisMeta, "gen", "docs")
		theses = p.SCard(ctx, keyRedisTheses)
		for i, g := range grams {
			counts[i] = p.SCard(ctx, redisGramKey(g))
		}
		return nil
	}); err != nil {
		return 0, err
	}
	gen, _ := meta.Val()[0].(string)
	docs, _ := strconv.Atoi(fmt.Sprint(meta.Val()[1]))
	n := int(theses.Val())
	if !thesis {
		n = docs - n
	}
	if n < minDocs {
		return 0, nil // too few documents of the kind to hold anything minDocs times
	}
	key := func(g uint32) uint64 {
		k := uint64(g)<<32 | uint64(uint32(minDocs)&^(1<<31))
		if thesis {
			k |= 1 << 31
		}
		return k
	}
	total, common := 0, 0
	var ask []uint32 // grams in enough paragraphs whose verdict is not cached
	s.cacheMu.Lock()
	if gen != s.gen {
		s.resetCaches(gen)
	}
	for i, g := range grams {
		total++
		// Fewer postings than minDocs cannot hold minDocs documents: most grams stop here.
		if int(counts[i].Val()) < minDocs {
			continue
		}
		if v, ok := s.bp[key(g)]; ok {
			if v {
				common++
			}
			continue
		}
		ask = append(ask, g)
	}
	s.cacheMu.Unlock()
	if len(ask) == 0 {
		return share(common, total), nil
	}
	sets := make([]*redis.StringSliceCmd, len(ask))
	if _, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, g := range ask {
			sets[i] = p.SMembers(ctx, redisGramKey(g))
		}
		return nil
	}); err != nil {
		return 0, err
	}
	postings := make([][]uint64, len(ask))
	var ids []uint64
	for i, set := range sets {
		ms, err := members(set)
		if err != nil {
			return 0, err
		}
		postings[i] = ms
		for _, m := range ms {
			ids = append(ids, m>>redisParaBits)
		}
	}
	kinds, err := s.kindsOf(ctx, ids)
	if err != nil {
		return 0, err
	}
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	for i, g := range ask {
		held := map[uint64]bool{}
		for _, m := range postings[i] {
			if d := m >> redisParaBits; kinds[d] == thesis {
				if held[d] = true; len(held) >= minDocs {
					break
				}
			}
		}
		v := len(held) >= minDocs
		if v {
			common++
		}
		keep(s.bp, 1<<16, key(g), v)
	}
	return share(common, total), nil
}

func share(common, total int) float64 {
	if total == 0 {
		return 0
	}
	return float64(common) / float64(total)
}

// kindsOf says which of ids are theses, from the cache or in one round trip.
func (s *redisStore) kindsOf(ctx context.Context, ids []uint64) (map[uint64]bool, error) {
	slices.Sort(ids)
	ids = slices.Compact(ids)
	out := make(map[uint64]bool, len(ids))
	s.cacheMu.Lock()
	miss := cached(s.kinds, ids, out)
	s.cacheMu.Unlock()
	if len(miss) == 0 {
		return out, nil
	}
	args := make([]any, len(miss))
	for i, id := range miss {
		args[i] = id
	}
	is, err := s.c.SMIsMember(ctx, keyRedisTheses, args...).Result()
	if err != nil {
		return nil, err
	}
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	for i, v := range is {
		out[miss[i]] = v
		keep(s.kinds, redisSimsCache, miss[i], v)
	}
	return out, nil
}

// Weights returns the word weights of the library's counts, as a folder's do. The counts are read
// again when the server's paragraph count says another process changed them.
func (s *redisStore) Weights() (func(hash uint32) float32, error) {
	ctx := context.Background()
	n, err := s.c.HGet(ctx, keyRedisMeta, "dfparas").Int()
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("library %s: word counts: %w", s.where, err)
	}
	s.dfMu.RLock()
	fresh := s.dft.loaded && s.dft.n == n
	s.dfMu.RUnlock()
	if !fresh {
		if err := s.loadWords(ctx); err != nil {
			return nil, err
		}
	}
	return s.localWeights(), nil
}

// importWeights are the weights an import fingerprints with: loaded once, then kept in step by
// its own batches, as a folder's import does.
func (s *redisStore) importWeights() (func(hash uint32) float32, error) {
	s.dfMu.RLock()
	loaded := s.dft.loaded
	s.dfMu.RUnlock()
	if !loaded {
		if err := s.loadWords(context.Background()); err != nil {
			return nil, err
		}
	}
	return s.localWeights(), nil
}

// loadWords reads the word counts and their paragraph count in one transaction, so that they agree.
func (s *redisStore) loadWords(ctx context.Context) error {
	var n *redis.StringCmd
	var df *redis.MapStringStringCmd
	if _, err := s.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		n, df = p.HGet(ctx, keyRedisMeta, "dfparas"), p.HGetAll(ctx, keyRedisDF)
		return nil
	}); err != nil && !errors.Is(err, redis.Nil) {
		return fmt.Errorf("library %s: word counts: %w", s.where, err)
	}
	t := dfTable{loaded: true, df: make(map[uint32]uint32, len(df.Val()))}
	paras := 0
	if !errors.Is(n.Err(), redis.Nil) {
		v, err := strconv.Atoi(n.Val())
		if err != nil {
			return fmt.Errorf("library %s: word counts: meta dfparas %q: %w", s.where, n.Val(), errRedisDamaged)
		}
		paras = v
	}
	t.setN(paras)
	for k, v := range df.Val() {
		h, err1 := strconv.ParseUint(k, 10, 32)
		c, err2 := strconv.ParseInt(v, 10, 64)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("library %s: word counts: %q → %q: %w", s.where, k, v, errRedisDamaged)
		}
		if c > 0 {
			t.df[uint32(h)] = uint32(c)
		}
	}
	s.dfMu.Lock()
	s.dft = t
	s.dfMu.Unlock()
	return nil
}

// localWeights are the weights of the counts in memory: nil below MinIDFParagraphs.
func (s *redisStore) localWeights() func(hash uint32) float32 {
	s.dfMu.RLock()
	defer s.dfMu.RUnlock()
	if s.dft.n < s.minIDF {
		return nil
	}
	return s.dft.weights(&s.dfMu)
}

// Doc returns a document's description and MinHash signature.
func (s *redisStore) Doc(id uint64) (DocInfo, similarity.Signature, error) {
	s.cacheMu.Lock()
	d, ok := s.infos[id]
	s.cacheMu.Unlock()
	if ok {
		return d.info, d.sig, nil
	}
	v, err := s.c.Get(context.Background(), redisDocKey(id)).Bytes()
	if errors.Is(err, redis.Nil) {
		return DocInfo{}, similarity.Signature{}, fmt.Errorf("library %s: document %d: %w", s.where, id, errNoDocument)
	}
	var rec docRecord
	if err == nil {
		if err = decodeRecord(v, &rec); err == nil && rec.ID != id {
			err = fmt.Errorf("its record is document %d's: %w", rec.ID, errRedisDamaged)
		}
	}
	if err != nil {
		return DocInfo{}, similarity.Signature{}, fmt.Errorf("library %s: document %d: %w", s.where, id, err)
	}
	var sig similarity.Signature
	copy(sig[:], rec.Signature)
	s.cacheMu.Lock()
	s.cacheDoc(rec.info(), sig, nil)
	s.cacheMu.Unlock()
	return rec.info(), sig, nil
}

// List returns the documents in the order they were added; a damaged record is listed with
// Damaged saying so, and named by the error, as a folder does.
func (s *redisStore) List() ([]DocInfo, error) {
	ctx := context.Background()
	ids, err := s.c.SMembers(ctx, keyRedisIDs).Result()
	if err != nil {
		return nil, fmt.Errorf("library %s: list: %w", s.where, err)
	}
	nums := make([]uint64, 0, len(ids))
	for _, v := range ids {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("library %s: list: id %q: %w", s.where, v, errRedisDamaged)
		}
		nums = append(nums, n)
	}
	slices.Sort(nums)
	recs := make([]*redis.StringCmd, len(nums))
	if _, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range nums {
			recs[i] = p.Get(ctx, redisDocKey(id))
		}
		return nil
	}); err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("library %s: list: %w", s.where, err)
	}
	out := make([]DocInfo, 0, len(nums))
	var missing []any
	for i, c := range recs {
		if errors.Is(c.Err(), redis.Nil) {
			missing = append(missing, nums[i])
			out = append(out, DocInfo{ID: nums[i], Damaged: "its record is missing"})
			continue
		}
		var rec docRecord
		if err := decodeRecord([]byte(c.Val()), &rec); err != nil || rec.ID != nums[i] {
			out = append(out, DocInfo{ID: nums[i], Damaged: "its record is damaged"})
			continue
		}
		out = append(out, rec.info())
	}
	// A document removed between the two reads is not missing: it is no longer listed.
	if len(missing) > 0 {
		still, err := s.c.SMIsMember(ctx, keyRedisIDs, missing...).Result()
		if err != nil {
			return nil, fmt.Errorf("library %s: list: %w", s.where, err)
		}
		out = slices.DeleteFunc(out, func(d DocInfo) bool {
			i := slices.Index(missing, any(d.ID))
			return i >= 0 && !still[i]
		})
	}
	var bad []error
	for _, d := range out {
		if d.Damaged != "" {
			bad = append(bad, fmt.Errorf("document %d: %s", d.ID, d.Damaged))
		}
	}
	if len(bad) > 0 {
		return out, fmt.Errorf("library %s: %w: %w", s.where, errors.Join(bad...), errRedisDamaged)
	}
	return out, nil
}

// decodeRedisParas reads a document's paragraphs hash: n records numbered from 0.
func decodeRedisParas(fields map[string]string, n int) ([]Paragraph, error) {
	if len(fields) != n {
		return nil, fmt.Errorf("%d paragraphs of %d: %w", len(fields), n, errRedisDamaged)
	}
	ps := make([]Paragraph, n)
	for k, v := range fields {
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= n {
			return nil, fmt.Errorf("paragraph %q: %w", k, errRedisDamaged)
		}
		if ps[i], err = decodeRedisPara(v); err != nil {
			return nil, fmt.Errorf("paragraph %d: %w", i, err)
		}
	}
	return ps, nil
}

func decodeRedisPara(v string) (Paragraph, error) {
	d := decoder{b: []byte(v)}
	p := d.paragraph()
	if d.err != nil || len(d.b) != 0 {
		return Paragraph{}, fmt.Errorf("%w: %w", errFormat, errRedisDamaged)
	}
	return p, nil
}

// Paragraphs returns the stored paragraphs of a document (text and tokens).
func (s *redisStore) Paragraphs(id uint64) ([]Paragraph, error) {
	ctx := context.Background()
	var rec *redis.StringCmd
	var ps *redis.MapStringStringCmd
	if _, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		rec, ps = p.Get(ctx, redisDocKey(id)), p.HGetAll(ctx, redisParasKey(id))
		return nil
	}); err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("library %s: document %d: %w", s.where, id, err)
	}
	if errors.Is(rec.Err(), redis.Nil) {
		return nil, fmt.Errorf("library %s: document %d: %w", s.where, id, errNoDocument)
	}
	var r docRecord
	err := decodeRecord([]byte(rec.Val()), &r)
	var out []Paragraph
	if err == nil {
		out, err = decodeRedisParas(ps.Val(), r.Paragraphs)
	}
	if err != nil {
		return nil, fmt.Errorf("library %s: document %d: %w", s.where, id, err)
	}
	return out, nil
}

// ParagraphsAt returns the stored paragraphs refs name, in one round trip: a check reads a query
// paragraph's candidates together.
func (s *redisStore) ParagraphsAt(refs []ParaRef) ([]Paragraph, error) {
	ctx := context.Background()
	cmds := make([]*redis.StringCmd, len(refs))
	// Every command's error is its own (a lost connection fails them all): they are read below.
	s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, r := range refs {
			cmds[i] = p.HGet(ctx, redisParasKey(r.Doc), strconv.Itoa(r.Para))
		}
		return nil
	})
	out := make([]Paragraph, len(refs))
	for i, r := range refs {
		v, err := cmds[i].Result()
		if errors.Is(err, redis.Nil) {
			err = errNoParagraph
			if n, xerr := s.c.Exists(ctx, redisDocKey(r.Doc)).Result(); xerr != nil {
				err = xerr
			} else if n == 0 {
				err = errNoDocument
			}
		}
		if err == nil {
			out[i], err = decodeRedisPara(v)
		}
		if err != nil {
			return nil, fmt.Errorf("library %s: document %d paragraph %d: %w", s.where, r.Doc, r.Para, err)
		}
	}
	return out, nil
}

// counts reads fields of meta as numbers (0 when absent).
func (s *redisStore) counts(fields ...string) []int {
	out := make([]int, len(fields))
	vs, err := s.c.HMGet(context.Background(), keyRedisMeta, fields...).Result()
	if err != nil {
		s.fail(err)
		return out
	}
	for i, v := range vs {
		if v == nil {
			continue
		}
		n, err := strconv.Atoi(fmt.Sprint(v))
		if err != nil {
			s.fail(fmt.Errorf("meta %s %q: %w", fields[i], v, errRedisDamaged))
		}
		out[i] = n
	}
	return out
}

// Counts returns the number of documents and how many of them are templates.
func (s *redisStore) Counts() (docs, templates int) {
	c := s.counts("docs", "templates")
	return c[0], c[1]
}

// Stats returns the number of documents and paragraphs.
func (s *redisStore) Stats() (docs, paras int) {
	c := s.counts("docs", "paras")
	return c[0], c[1]
}

// Theses counts the theses; a library on Redis records every document's kind.
func (s *redisStore) Theses() (n int, known bool) {
	v, err := s.c.SCard(context.Background(), keyRedisTheses).Result()
	if err != nil {
		s.fail(err)
	}
	return int(v), true
}
