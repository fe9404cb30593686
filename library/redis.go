package library

// Key layout of a library on Redis
//
// A library is one Redis database (the /db of redis://host:port/db); it holds nothing else. Its keys
// hold what a library folder holds (format.go) with the same values where there is one, and the
// index that a folder keeps in segments is kept as Redis sets that the writes keep up to date, so
// there is nothing to build at open and nothing to merge or compact. ID is a document id in
// decimal, {ID} its hash tag (see Cluster below); a posting is the integer ID<<20 | paragraph, so
// that a set of up to 512 of them is an intset (8 bytes a member) rather than a hash table.
//
// Memory (INFO used_memory, scripts/bench.sh's generated documents of 30 paragraphs, 14 KB of text
// each): 104 KiB a document at 1,000 documents (658 keys a document), 85 KiB at 10,000 (380 keys a
// document, 838 MiB in all; a folder takes 467 MiB of disk), 82 KiB at 100,000 (204 keys a
// document, 7.9 GiB in all). Most of it is the keys themselves
// (about 100-150 bytes each with Redis's own overhead): a winnowed gram is mostly held by one
// paragraph, so most g: sets have one member. Bucketing the grams into hashes of packed postings
// would save most of that; it would need Lua scripts to append and remove, and is not built.
//
//	thesischeck      hash: "schema" → "2" (redisSchema); "analyser" → similarity.AnalyserVersion of the
//	                 tokens and fingerprints; "next" → the last document id given (HINCRBY); "docs",
//	                 "templates", "paras" → documents, of which templates, and their paragraphs;
//	                 "dfparas" → paragraphs counted in df; "gen" → changes made (each import batch
//	                 and removal adds one: readers drop what they cached of the postings)
//	ids              set of the documents' ids (List)
//	theses           set of the ids of the documents that are theses (kinds.go)
//	sha:HEX          SHA-256 of a file's content → its document id: the same content is added once
//	d:{ID}           the document's record: docRecord JSON, as bucket docs of a folder
//	p:{ID}           hash: paragraph number (decimal) → the paragraph's record (format.go)
//	s:{ID}           the paragraphs' SimHashes, 8 bytes each, little-endian
//	f:{ID}           the paragraphs' fingerprints (format.go's fp value), for Remove
//	g:GRAM           set of the postings of a winnowed word-bigram hash (GRAM in hex)
//	bB:V             set of the postings of the paragraphs whose SimHash block B (0-3) is V (hex);
//	                 paragraphs with SimHash 0 have none, as in a folder
//	l:KEY            set of the ids of the documents with MinHash LSH band key KEY (hex;
//	                 Signature.BandKeys mixes the band into the key, as segments rely on)
//	df               hash: word hash (decimal) → paragraphs holding the word (idf.go's counts; a
//	                 removal may leave a word at 0, which Weights reads as absent, as a folder does)
//
// Writes. An import reserves ids with HINCRBY next, WATCHes the sha keys of its batch, leaves out
// those already there, and writes the rest in one MULTI/EXEC: every key of every document (record,
// paragraphs, SimHashes, fingerprints, postings, bands, df, ids, theses, counts, sha keys). Redis
// applies a transaction whole or not at all, and a client killed before EXEC leaves nothing: a
// killed import leaves no half document, and running it again adds what is missing. If another
// importer wrote one of the sha keys meanwhile, EXEC aborts; the batch is read again and those
// documents count as duplicates (their reserved ids stay unused). A removal WATCHes the document's
// record and undoes every key of it in one MULTI/EXEC. Nothing is left dead: Compact has no work.
//
// Reads pipeline their lookups: a query paragraph's gram counts, SimHash blocks and "gen" in one
// round trip, the postings of the grams a check counts in a second (those of common grams are
// kept in memory until "gen" changes), the SimHashes of the documents not cached in a third.
//
// Cluster. A document's own keys (d, p, s, f) share the hash tag {ID}, so they are in one slot.
// The rest cannot be: postings, bands, df, ids, theses, meta and sha keys are shared by documents
// and spread over slots by their names, and a transaction on a Cluster must stay in one slot. On a
// Cluster the import would write a document's own keys in one transaction and then the shared keys
// (idempotent SADD/SREM; df and counts would need a per-document marker so as not to be counted
// twice), with readers skipping postings whose document has no record: that is not built, and
// openRedis refuses a cluster node (checkServer).

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/logging"

	"thesischeck/similarity"
)

// redisSchema is the version of the key layout above. Schema 2 writes paragraph records with packed
// tokens (format.go); a schema 1 library's records read as they are, and a writable open writes
// "2" in its meta, so that an older binary, which refuses any schema but its own, never misreads
// the new records.
const redisSchema = "2"

// Timeouts of a library on Redis: a server that is down, or an address where none answers, is an
// error within seconds, never a hang.
const (
	redisDialTimeout = 3 * time.Second
	redisIOTimeout   = 10 * time.Second
	// redisOpenTimeout bounds the whole open: dialling and the first PING.
	redisOpenTimeout = 5 * time.Second
)

// Key names (see the layout above).
const (
	keyRedisMeta   = "thesischeck"
	keyRedisIDs    = "ids"
	keyRedisTheses = "theses"
	keyRedisDF     = "df"
)

func redisDocKey(id uint64) string   { return "d:{" + strconv.FormatUint(id, 10) + "}" }
func redisParasKey(id uint64) string { return "p:{" + strconv.FormatUint(id, 10) + "}" }
func redisSimsKey(id uint64) string  { return "s:{" + strconv.FormatUint(id, 10) + "}" }
func redisFPKey(id uint64) string    { return "f:{" + strconv.FormatUint(id, 10) + "}" }
func redisSHAKey(sha string) string  { return "sha:" + sha }
func redisGramKey(g uint32) string   { return "g:" + strconv.FormatUint(uint64(g), 16) }
func redisBlockKey(b int, v uint16) string {
	return "b" + strconv.Itoa(b) + ":" + strconv.FormatUint(uint64(v), 16)
}
func redisBandKey(k uint64) string { return "l:" + strconv.FormatUint(k, 16) }

// redisParaBits is how many low bits of a posting number the paragraph: a document of more
// paragraphs than that cannot be added to a library on Redis.
const redisParaBits = 20

// redisWeightBits is how many low bits hold a gram's weight beside a posting while a query counts
// its hits (candidates): gramWeight is at most 63.
const redisWeightBits = 8

func redisPosting(id uint64, para int) int64 { return int64(id<<redisParaBits | uint64(para)) }

func redisRef(posting uint64) ParaRef {
	return ParaRef{Doc: posting >> redisParaBits, Para: int(posting & (1<<redisParaBits - 1))}
}

var quietRedis sync.Once

// redisStore is a library on a Redis server. It is safe for use by several goroutines, and several
// processes may use the same library at once: imports, removals and checks.
type redisStore struct {
	where    string // the URL without its password
	c        *redis.Client
	readOnly bool

	writeMu sync.Mutex // this process's imports and removals, one at a time

	// Options with their defaults, set by openRedis and never changed.
	minIDF, batchSize, maxPostings int

	// errMu guards err, the first read that failed (the server, or data found inconsistent): the
	// queries that cannot return an error answered without what they could not read, and Damaged
	// says so.
	errMu sync.Mutex
	err   error

	dfMu sync.RWMutex
	dft  dfTable // the df hash, loaded by Weights, kept in step by this process's writes

	cacheMu sync.Mutex
	gen     string              // meta "gen" when the caches below were checked
	infos   map[uint64]redisDoc // descriptions of recently used documents
	sims    map[uint64][]uint64 // documents' SimHashes (a document's never change)
	kinds   map[uint64]bool     // documents' kinds (thesis), which never change either
	bp      map[uint64]bool     // Boilerplate's verdicts, as a folder's; cleared when gen changes
	// posts holds the postings of common grams (at least redisPostsMin paragraphs), which a
	// check asks for paragraph after paragraph, postsN how many it holds; cleared when gen changes.
	posts  map[uint32][]uint64
	postsN int
}

// redisDoc is what Doc returns of a document.
type redisDoc struct {
	info DocInfo
	sig  similarity.Signature
}

// openRedis opens the library in the database a redis:// or rediss:// URL names, making it there
// if the database is empty. A server that does not answer within seconds, a database that holds
// something else, and a library written by another layout or text analyser are errors.
func openRedis(where string, opts *Options) (*redisStore, error) {
	if opts == nil {
		opts = &Options{}
	}
	shown := redactURL(where)
	o, err := redis.ParseURL(where)
	if err != nil {
		return nil, fmt.Errorf("library %s: %w", shown, err)
	}
	o.DialTimeout, o.ReadTimeout, o.WriteTimeout = redisDialTimeout, redisIOTimeout, redisIOTimeout
	// One dial a try and one more try: by default a command to a server that went away dials five
	// times a try, four tries, which at 3 s a dial is a minute where a user waits.
	o.DialerRetries, o.MaxRetries = 1, 1
	// go-redis logs what it then returns as an error to stderr, as "redis: pool.go:…" lines that
	// would say it again, without the library's name, in the CLI's output.
	quietRedis.Do(func() { redis.SetLogger(&logging.VoidLogger{}) })
	// go-redis names itself to the server with CLIENT SETINFO, which servers before 7.2 refuse.
	o.DisableIdentity = true
	s := &redisStore{where: shown, c: redis.NewClient(o), readOnly: opts.ReadOnly,
		minIDF: cmp.Or(opts.MinIDFParagraphs, DefaultMinIDFParagraphs), batchSize: cmp.Or(opts.BatchSize, defaultBatchSize),
		maxPostings: cmp.Or(opts.MaxPostings, defaultMaxPostings)}
	s.resetCaches("")
	ctx, cancel := context.WithTimeout(context.Background(), redisOpenTimeout)
	defer cancel()
	if err := s.c.Ping(ctx).Err(); err != nil {
		s.c.Close()
		return nil, fmt.Errorf("library %s: cannot reach the server: %w", shown, err)
	}
	if err := s.checkServer(ctx); err != nil {
		s.c.Close()
		return nil, fmt.Errorf("library %s: %w", shown, err)
	}
	if err := s.checkMeta(ctx); err != nil {
		s.c.Close()
		return nil, fmt.Errorf("library %s: %w", shown, err)
	}
	return s, nil
}

// checkServer refuses a node of a Redis Cluster: a library's transactions span slots (see Cluster
// above), which a cluster answers with MOVED or CROSSSLOT errors halfway through an import.
func (s *redisStore) checkServer(ctx context.Context) error {
	info, err := s.c.Info(ctx, "cluster").Result()
	if err != nil {
		return err
	}
	if infoFields(info)["cluster_enabled"] == "1" {
		return errors.New("the server is a node of a Redis Cluster: a library needs a server of its own (or a primary with replicas), not a cluster")
	}
	return nil
}

// checkMeta makes the meta hash of a new library, and refuses a database that holds something else
// or a library this version cannot read.
func (s *redisStore) checkMeta(ctx context.Context) error {
	meta, err := s.c.HMGet(ctx, keyRedisMeta, "schema", "analyser").Result()
	if err != nil {
		return err
	}
	if meta[0] == nil {
		n, err := s.c.DBSize(ctx).Result()
		if err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("the database holds %d keys and no ThesisCheck library: name another database (redis://host:port/N)", n)
		}
		if s.readOnly {
			return errors.New("the database holds no library yet (adding documents makes one)")
		}
		// HSETNX: of two processes making the library at once, the first one's values stay.
		_, err = s.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.HSetNX(ctx, keyRedisMeta, "schema", redisSchema)
			p.HSetNX(ctx, keyRedisMeta, "analyser", similarity.AnalyserVersion())
			return nil
		})
		if err != nil {
			return err
		}
		meta, err = s.c.HMGet(ctx, keyRedisMeta, "schema", "analyser").Result()
		if err != nil {
			return err
		}
	}
	schema, _ := meta[0].(string)
	if n, err := strconv.Atoi(schema); err != nil || n < 1 {
		return fmt.Errorf("meta schema %q: %w", schema, errRedisDamaged)
	} else if schema != redisSchema && schema != "1" {
		return ErrVersion
	}
	if have, _ := meta[1].(string); have != similarity.AnalyserVersion() {
		return fmt.Errorf("%w (its analyser %s, this version's %s)", ErrAnalyser, have, similarity.AnalyserVersion())
	}
	if schema == "1" && !s.readOnly {
		if err := s.c.HSet(ctx, keyRedisMeta, "schema", redisSchema).Err(); err != nil {
			return err
		}
	}
	return nil
}

// Dir is the server's URL without its password.
func (s *redisStore) Dir() string { return s.where }

// Close closes the connections to the server.
func (s *redisStore) Close() error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	return s.c.Close()
}

// Home asks the server for its version and the memory it uses, and times a PING.
func (s *redisStore) Home(ctx context.Context) (Home, error) {
	h := Home{Kind: "redis", Where: s.where}
	start := time.Now()
	if err := s.c.Ping(ctx).Err(); err != nil {
		return h, fmt.Errorf("library %s: cannot reach the server: %w", s.where, err)
	}
	h.RoundTrip = time.Since(start)
	info, err := s.c.Info(ctx, "server", "memory").Result()
	if err != nil {
		return h, fmt.Errorf("library %s: %w", s.where, err)
	}
	fields := infoFields(info)
	h.Server = "Redis " + fields["redis_version"]
	h.Bytes, _ = strconv.ParseInt(fields["used_memory"], 10, 64)
	return h, nil
}

// infoFields reads the "name:value" lines of an INFO reply.
func infoFields(info string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(info, "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), ":"); ok {
			out[k] = v
		}
	}
	return out
}

// fail records the first read that failed; Damaged returns it.
func (s *redisStore) fail(err error) {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	if s.err == nil {
		s.err = fmt.Errorf("library %s: %w", s.where, err)
	}
}

// Damaged returns the first query that failed since the library was opened (the server did not
// answer, or a value was not what the layout says, wrapping ErrDamaged): the queries that cannot
// return an error (Candidates, SimilarDocuments, SimHash, Boilerplate) answered without it.
func (s *redisStore) Damaged() error {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	return s.err
}

// Compact has nothing to do: a removal deletes every key of a document, its postings included, and
// Redis frees the memory as it goes.
func (s *redisStore) Compact() (int, error) {
	if s.readOnly {
		return 0, fmt.Errorf("library %s: opened read-only", s.where)
	}
	return 0, nil
}

// resetCaches empties the caches of postings and verdicts, which any change of the library may
// have made wrong; descriptions, SimHashes and kinds of documents never change and are kept. gen
// is the library's "gen" they are now in step with. cacheMu is held, or the store is new.
func (s *redisStore) resetCaches(gen string) {
	s.gen = gen
	s.bp = map[uint64]bool{}
	s.posts, s.postsN = map[uint32][]uint64{}, 0
	if s.infos == nil {
		s.infos, s.sims, s.kinds = map[uint64]redisDoc{}, map[uint64][]uint64{}, map[uint64]bool{}
	}
}

// forget drops removed documents from the caches.
func (s *redisStore) forget(ids []uint64) {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	s.resetCaches("")
	for _, id := range ids {
		delete(s.infos, id)
		delete(s.sims, id)
		delete(s.kinds, id)
	}
}

// errRedisDamaged is ErrDamaged as a library on Redis says it: `library check` and `library repair`
// read a folder's files, so ErrDamaged's advice would send the user to commands that refuse it.
var errRedisDamaged error = redisDamaged{}

type redisDamaged struct{}

func (redisDamaged) Error() string {
	return "the library's data on the Redis server is damaged, or was changed by something other than ThesisCheck (restore the server's backup, or remove the documents named and add them again)"
}

func (redisDamaged) Unwrap() error { return ErrDamaged }
