package library

import (
	"context"
	"net/url"
	"strings"
	"time"

	"thesischeck/similarity"
)

// Library is an open reference library: a folder of this machine (folder, format.go) or a
// database on a Redis server that a department shares (redisStore, redis.go). Checks, imports and
// the screens use it the same way whichever it is. It is safe for use by several goroutines.
type Library struct{ store }

// store is what a library does, in each of its homes.
type store interface {
	// AddFiles adds files, and folders recursively. Files are extracted and fingerprinted on all
	// cores; documents are committed in batches. A file that fails is listed in the result and the
	// rest still go in. progress may be nil; it is called from the calling goroutine.
	AddFiles(ctx context.Context, paths []string, opts AddOptions, progress func(AddProgress)) (AddResult, error)
	// Remove takes documents out of the library.
	Remove(ids ...uint64) error
	// Compact gives back the room removed documents took, and says how many it reclaimed.
	Compact() (int, error)
	Close() error

	// Candidates returns the library paragraphs that share at least minHits indexed grams with the
	// query (grams in no more than Options.MaxPostings paragraphs), or whose SimHash is within
	// maxHamming of it, best first, at most limit of them. grams are all the word bigrams of the
	// query (not winnowed).
	Candidates(grams []uint32, simhash uint64, maxHamming, minHits, limit int) []Candidate
	// Boilerplate reports the share of a library paragraph's indexed grams (its word bigrams,
	// winnowed as the index winnows them) that stand in at least minDocs documents of the library of
	// one kind, theses or not (kinds.go): text every thesis of a university shares, such as its
	// declaration of originality, scores near 1 among theses however many articles the library holds.
	Boilerplate(grams []uint32, minDocs int, thesis bool) float64
	// Warm makes what the first queries of a check would make on first use (a folder's lists of
	// its index's frequent grams, which Boilerplate bounds grams with), so that a caller can have
	// it made while it does other work.
	Warm()
	// SimilarDocuments returns the documents whose MinHash signature shares an LSH band with sig.
	SimilarDocuments(sig *similarity.Signature) []uint64
	// SimHash returns the stored SimHash of a library paragraph.
	SimHash(r ParaRef) uint64
	// Weights returns the word weights learned from the library, or nil while the library has fewer
	// than its MinIDFParagraphs paragraphs (callers keep jieba's weights then). The function is
	// safe for concurrent use.
	Weights() (func(hash uint32) float32, error)
	// Damaged returns an error wrapping ErrDamaged when a read found the library's data
	// inconsistent; the queries made since may have answered without it. A check calls it after its
	// queries.
	Damaged() error

	Doc(id uint64) (DocInfo, similarity.Signature, error)
	List() ([]DocInfo, error)
	// ParagraphsAt returns the stored paragraphs refs name, in their order, read together: in one
	// transaction of a folder's database, in one round trip to a server.
	ParagraphsAt(refs []ParaRef) ([]Paragraph, error)
	Paragraphs(id uint64) ([]Paragraph, error)
	Counts() (docs, templates int)
	Stats() (docs, paras int)
	// Theses counts the library's theses, and says whether every document's kind is known.
	Theses() (n int, known bool)
	// Dir names the library for the user: its folder, or its server's address without a password.
	Dir() string
	// Home reads afresh where the library lives and the room it takes; for a library on a server
	// it is the connection test: an error when the server does not answer.
	Home(ctx context.Context) (Home, error)
}

// Home describes where a library lives, as the library screen shows it.
type Home struct {
	Kind  string // "folder" or "redis"
	Where string // the folder, or the server's URL without its password
	// Bytes is the room the library takes: its files, or the memory the Redis server uses (the
	// server's, which may hold other databases too: Redis counts memory per server).
	Bytes     int64
	Server    string        // the server's name and version ("Redis 7.0.15"); empty for a folder
	RoundTrip time.Duration // how long the server took to answer a PING; zero for a folder
}

// Open opens the library at where: a Redis URL (redis://[user:pass@]host:port/db, or rediss://
// for TLS) or a folder, created if needed. See openFolder and openRedis.
func Open(where string, opts *Options) (*Library, error) {
	if IsRemote(where) {
		r, err := openRedis(where, opts)
		if err != nil {
			return nil, err
		}
		return &Library{r}, nil
	}
	f, err := openFolder(where, opts)
	if err != nil {
		return nil, err
	}
	return &Library{f}, nil
}

// IsRemote says whether where names a library on a Redis server rather than a folder.
func IsRemote(where string) bool {
	return strings.HasPrefix(where, "redis://") || strings.HasPrefix(where, "rediss://")
}

// redactURL is a Redis URL as it may be shown: without its password.
func redactURL(where string) string {
	u, err := url.Parse(where)
	if err != nil {
		return "redis://…" // an address we cannot parse may hold a password anywhere
	}
	return u.Redacted()
}
