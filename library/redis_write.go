package library

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"thesischeck/similarity"
)

// AddFiles imports files and folders as a folder library does (importFiles), each batch written in
// one transaction (write).
func (s *redisStore) AddFiles(ctx context.Context, paths []string, opts AddOptions, progress func(AddProgress)) (AddResult, error) {
	if s.readOnly {
		_, bad := Files(paths)
		return AddResult{Failed: bad}, fmt.Errorf("library %s: opened read-only", s.where)
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	return importFiles(ctx, paths, opts, progress, s.batchSize, s.importWeights, func(batch []prepared) ([]DocInfo, []string, error) {
		added, dups, err := s.write(context.WithoutCancel(ctx), batch) // a cancelled import commits what it prepared, as a folder does
		if err != nil {
			err = fmt.Errorf("library %s: write: %w", s.where, err)
		}
		return added, dups, err
	})
}

// redisAttempts bounds how often a batch is tried again after another importer wrote one of its
// documents first: each try finds more of them there, so a few are always enough.
const redisAttempts = 64

// write commits the documents of batch that the library does not hold yet, in one transaction; see
// the layout in redis.go.
func (s *redisStore) write(ctx context.Context, batch []prepared) (added []DocInfo, dups []string, err error) {
	seen := map[string]bool{}
	todo := make([]prepared, 0, len(batch))
	dup := make([]bool, len(batch)) // in the batch's order, as a folder lists them
	for i, p := range batch {
		if len(p.paras) >= 1<<redisParaBits {
			return nil, nil, fmt.Errorf("%s: %d paragraphs, more than a library on Redis holds in one document (%d)", p.path, len(p.paras), 1<<redisParaBits-1)
		}
		if seen[p.rec.SHA256] {
			dup[i] = true
			continue
		}
		seen[p.rec.SHA256] = true
		todo = append(todo, p)
	}
	keys := make([]string, len(todo))
	for i, p := range todo {
		keys[i] = redisSHAKey(p.rec.SHA256)
	}
	for range redisAttempts {
		var recs []docRecord
		var fresh []prepared
		var there map[string]bool
		err := s.c.Watch(ctx, func(tx *redis.Tx) error {
			recs, fresh, there = nil, nil, map[string]bool{}
			exists := make([]*redis.IntCmd, len(keys))
			if _, err := tx.Pipelined(ctx, func(p redis.Pipeliner) error {
				for i, k := range keys {
					exists[i] = p.Exists(ctx, k)
				}
				return nil
			}); err != nil {
				return err
			}
			for i, c := range exists {
				if c.Val() > 0 {
					there[todo[i].rec.SHA256] = true
				} else {
					fresh = append(fresh, todo[i])
				}
			}
			if len(fresh) == 0 {
				return nil
			}
			last, err := tx.HIncrBy(ctx, keyRedisMeta, "next", int64(len(fresh))).Result()
			if err != nil {
				return err
			}
			now := time.Now().UTC().Truncate(time.Second)
			recs = make([]docRecord, len(fresh))
			for i, p := range fresh {
				recs[i] = p.rec
				recs[i].ID, recs[i].Added = uint64(last)-uint64(len(fresh)-1)+uint64(i), now
			}
			_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error { return putDocs(ctx, p, recs, fresh) })
			return err
		}, keys...)
		if errors.Is(err, redis.TxFailedErr) {
			continue // another importer wrote one of these documents: look again
		}
		if err != nil {
			return nil, nil, err
		}
		for i, p := range batch {
			if dup[i] || there[p.rec.SHA256] {
				dups = append(dups, p.path)
			}
		}
		delta, paras := map[uint32]int{}, 0
		for _, p := range fresh {
			for _, c := range p.words {
				delta[c.hash] += int(c.n)
			}
			paras += len(p.paras)
		}
		s.dfMu.Lock()
		s.applyWords(delta, paras)
		s.dfMu.Unlock()
		s.cacheMu.Lock()
		s.resetCaches("")
		for i, r := range recs {
			added = append(added, r.DocInfo)
			var sig similarity.Signature
			copy(sig[:], r.Signature)
			s.cacheDoc(r.DocInfo, sig, fresh[i].fps)
		}
		s.cacheMu.Unlock()
		return added, dups, nil
	}
	return nil, nil, fmt.Errorf("other importers kept writing the same documents: %d tries", redisAttempts)
}

// putDocs queues the commands that write documents recs (fresh's records, with their ids) whole.
func putDocs(ctx context.Context, p redis.Pipeliner, recs []docRecord, fresh []prepared) error {
	grams := map[uint32][]any{}
	blocks := map[string][]any{}
	words, paras, templates := map[uint32]int{}, 0, 0
	for i, d := range fresh {
		r := recs[i]
		js, err := json.Marshal(r)
		if err != nil {
			return err
		}
		id := r.ID
		p.Set(ctx, redisDocKey(id), js, 0)
		fields := make([]any, 0, 2*len(d.paras))
		for n, para := range d.paras {
			var e encoder
			e.paragraph(para)
			fields = append(fields, strconv.Itoa(n), e.b)
		}
		if len(fields) > 0 {
			p.HSet(ctx, redisParasKey(id), fields...)
		}
		sims := make([]byte, 0, 8*len(d.fps))
		for n, f := range d.fps {
			sims = binary.LittleEndian.AppendUint64(sims, f.SimHash)
			m := redisPosting(id, n)
			for _, g := range f.Grams {
				grams[g] = append(grams[g], m)
			}
			if f.SimHash != 0 {
				for b, k := range similarity.Blocks(f.SimHash) {
					key := redisBlockKey(b, k)
					blocks[key] = append(blocks[key], m)
				}
			}
		}
		p.Set(ctx, redisSimsKey(id), sims, 0)
		p.Set(ctx, redisFPKey(id), encodeFingerprints(d.fps), 0)
		var sig similarity.Signature
		copy(sig[:], r.Signature)
		for _, k := range sig.BandKeys() {
			p.SAdd(ctx, redisBandKey(k), id)
		}
		p.SAdd(ctx, keyRedisIDs, id)
		if r.Thesis {
			p.SAdd(ctx, keyRedisTheses, id)
		}
		if r.Template {
			templates++
		}
		p.Set(ctx, redisSHAKey(r.SHA256), id, 0)
		for _, c := range d.words {
			words[c.hash] += int(c.n)
		}
		paras += len(d.paras)
	}
	for g, ms := range grams {
		p.SAdd(ctx, redisGramKey(g), ms...)
	}
	for k, ms := range blocks {
		p.SAdd(ctx, k, ms...)
	}
	addWords(ctx, p, words)
	p.HIncrBy(ctx, keyRedisMeta, "docs", int64(len(recs)))
	p.HIncrBy(ctx, keyRedisMeta, "templates", int64(templates))
	p.HIncrBy(ctx, keyRedisMeta, "paras", int64(paras))
	p.HIncrBy(ctx, keyRedisMeta, "dfparas", int64(paras))
	p.HIncrBy(ctx, keyRedisMeta, "gen", 1)
	return nil
}

// addWords queues the change of the word counts.
func addWords(ctx context.Context, p redis.Pipeliner, words map[uint32]int) {
	for h, n := range words {
		if n != 0 {
			p.HIncrBy(ctx, keyRedisDF, strconv.FormatUint(uint64(h), 10), int64(n))
		}
	}
}

// Remove deletes documents by id, each in one transaction. Unknown ids are an error and nothing is
// removed; a document another process removes meanwhile is gone all the same.
func (s *redisStore) Remove(ids ...uint64) error {
	if s.readOnly {
		return fmt.Errorf("library %s: opened read-only", s.where)
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	ctx := context.Background()
	exists := make([]*redis.IntCmd, len(ids))
	if _, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range ids {
			exists[i] = p.Exists(ctx, redisDocKey(id))
		}
		return nil
	}); err != nil {
		return fmt.Errorf("library %s: remove: %w", s.where, err)
	}
	for i, c := range exists {
		if c.Val() == 0 {
			return fmt.Errorf("library %s: remove: no document with id %d", s.where, ids[i])
		}
	}
	defer s.forget(ids)
	for _, id := range ids {
		if err := s.removeDoc(ctx, id); err != nil {
			return fmt.Errorf("library %s: remove: document %d: %w", s.where, id, err)
		}
	}
	return nil
}

// removeDoc undoes every key of document id in one transaction.
func (s *redisStore) removeDoc(ctx context.Context, id uint64) error {
	for range redisAttempts {
		var removed wordCounts
		err := s.c.Watch(ctx, func(tx *redis.Tx) error {
			removed = wordCounts{words: map[uint32]int{}}
			var rec *redis.StringCmd
			var fp *redis.StringCmd
			var ps *redis.MapStringStringCmd
			if _, err := tx.Pipelined(ctx, func(p redis.Pipeliner) error {
				rec, fp, ps = p.Get(ctx, redisDocKey(id)), p.Get(ctx, redisFPKey(id)), p.HGetAll(ctx, redisParasKey(id))
				return nil
			}); err != nil && !errors.Is(err, redis.Nil) {
				return err
			}
			if errors.Is(rec.Err(), redis.Nil) {
				return nil // removed by another process
			}
			var r docRecord
			if err := decodeRecord([]byte(rec.Val()), &r); err != nil {
				return err
			}
			fps, grams, err := decodeFingerprints([]byte(fp.Val()))
			if err == nil && !grams { // f:{ID} always holds the grams, which Remove needs
				err = errFormat
			}
			if err != nil {
				return fmt.Errorf("%w: %w", err, errRedisDamaged)
			}
			// A document whose paragraphs are damaged is removed all the same; its words stay in the
			// counts, which only weigh SimHashes (as in a folder).
			if paras, err := decodeRedisParas(ps.Val(), r.Paragraphs); err == nil {
				wordDelta(paras, -1, removed.words)
				removed.paras = -len(paras)
			}
			_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.Del(ctx, redisDocKey(id), redisParasKey(id), redisSimsKey(id), redisFPKey(id), redisSHAKey(r.SHA256))
				for n, f := range fps {
					m := redisPosting(id, n)
					for _, g := range f.Grams {
						p.SRem(ctx, redisGramKey(g), m)
					}
					if f.SimHash != 0 {
						for b, k := range similarity.Blocks(f.SimHash) {
							p.SRem(ctx, redisBlockKey(b, k), m)
						}
					}
				}
				var sig similarity.Signature
				copy(sig[:], r.Signature)
				for _, k := range sig.BandKeys() {
					p.SRem(ctx, redisBandKey(k), id)
				}
				p.SRem(ctx, keyRedisIDs, id)
				p.SRem(ctx, keyRedisTheses, id)
				addWords(ctx, p, removed.words)
				templates := 0
				if r.Template {
					templates = 1
				}
				p.HIncrBy(ctx, keyRedisMeta, "docs", -1)
				p.HIncrBy(ctx, keyRedisMeta, "templates", int64(-templates))
				p.HIncrBy(ctx, keyRedisMeta, "paras", int64(-len(fps)))
				p.HIncrBy(ctx, keyRedisMeta, "dfparas", int64(removed.paras))
				p.HIncrBy(ctx, keyRedisMeta, "gen", 1)
				return nil
			})
			return err
		}, redisDocKey(id))
		if errors.Is(err, redis.TxFailedErr) {
			continue
		}
		if err != nil {
			return err
		}
		s.dfMu.Lock()
		s.applyWords(removed.words, removed.paras)
		s.dfMu.Unlock()
		return nil
	}
	return fmt.Errorf("other processes kept changing it: %d tries", redisAttempts)
}

// applyWords brings the word counts in memory, if loaded, in step with a change this process
// committed; dfMu is held.
func (s *redisStore) applyWords(delta map[uint32]int, paras int) { s.dft.apply(delta, paras) }
