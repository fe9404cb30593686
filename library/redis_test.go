package library

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"net"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"thesischeck/internal/redistest"
	"thesischeck/prepare"
	"thesischeck/similarity"
)

// forBackends runs test against a library in a folder and against one on a Redis server of the
// test's own; open opens the test's library (the same one at every call) with opts.
func forBackends(t *testing.T, test func(t *testing.T, open func(opts *Options) *Library)) {
	t.Run("folder", func(t *testing.T) {
		dir := t.TempDir()
		test(t, func(opts *Options) *Library { return openLib(t, dir, opts) })
	})
	t.Run("redis", func(t *testing.T) {
		url := redistest.Start(t).URL(0)
		test(t, func(opts *Options) *Library { return openLib(t, url, opts) })
	})
}

// rawClient is a plain client of a test server, to set it up or look inside a library.
func rawClient(t *testing.T, url string) *redis.Client {
	t.Helper()
	o, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	o.DisableIdentity = true
	c := redis.NewClient(o)
	t.Cleanup(func() { c.Close() })
	return c
}

// A server that is not there, or a database that is not a library this version reads, is one
// clear error within seconds; passwords are never shown.
func TestRedisOpenErrors(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()

	// Nobody listens on the port, or the address leads nowhere: an error within the timeouts.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	for _, where := range []string{"redis://" + closed + "/0", "redis://10.255.255.1:6379/0"} {
		start := time.Now()
		_, err := Open(where, nil)
		if took := time.Since(start); err == nil || !strings.Contains(err.Error(), "cannot reach the server") || took > redisOpenTimeout+time.Second {
			t.Errorf("%s: %v after %v; want 'cannot reach the server' within %v", where, err, took, redisOpenTimeout)
		}
	}

	// A password: never in Dir, Home or an error.
	c := rawClient(t, srv.URL(0))
	if err := c.ConfigSet(ctx, "requirepass", "s3cret-pw").Err(); err != nil {
		t.Fatal(err)
	}
	withPW := "redis://:s3cret-pw@" + srv.Addr + "/1"
	lib := openLib(t, withPW, nil)
	home, err := lib.Home(ctx)
	if err != nil || home.Kind != "redis" || !strings.HasPrefix(home.Server, "Redis ") || home.Bytes <= 0 {
		t.Errorf("Home = %+v, %v", home, err)
	}
	if strings.Contains(lib.Dir(), "s3cret") || strings.Contains(home.Where, "s3cret") || !strings.Contains(lib.Dir(), "xxxxx") {
		t.Errorf("Dir %q, Home.Where %q: the password must be hidden", lib.Dir(), home.Where)
	}
	lib.Close()
	if _, err := Open("redis://:wrong-pw@"+srv.Addr+"/1", nil); err == nil || strings.Contains(err.Error(), "wrong-pw") {
		t.Errorf("wrong password: %v; want an error that does not show it", err)
	}
	pw := rawClient(t, withPW)
	defer pw.ConfigSet(ctx, "requirepass", "")

	// A database holding something else, an empty one read-only, a newer layout, another analyser.
	other := "redis://:s3cret-pw@" + srv.Addr + "/3"
	rawClient(t, other).Set(ctx, "someone-elses", "data", 0)
	if _, err := Open(other, nil); err == nil || !strings.Contains(err.Error(), "no ThesisCheck library") {
		t.Errorf("database of other data: %v", err)
	}
	if _, err := Open("redis://:s3cret-pw@"+srv.Addr+"/2", &Options{ReadOnly: true}); err == nil || !strings.Contains(err.Error(), "no library yet") {
		t.Errorf("empty database read-only: %v", err)
	}
	pw.HSet(ctx, keyRedisMeta, "schema", "3")
	if _, err := Open(withPW, nil); !errors.Is(err, ErrVersion) {
		t.Errorf("newer layout: %v, want ErrVersion", err)
	}
	pw.HSet(ctx, keyRedisMeta, "schema", redisSchema, "analyser", "other-analyser")
	for _, ro := range []bool{false, true} {
		if _, err := Open(withPW, &Options{ReadOnly: ro}); !errors.Is(err, ErrAnalyser) {
			t.Errorf("read-only %v, another analyser: %v, want ErrAnalyser", ro, err)
		}
	}
}

// A node of a Redis Cluster is refused at open, before anything is written.
func TestRedisRefusesCluster(t *testing.T) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatal("redis-server not found: run 'make deps' (Debian package redis-server)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, port, _ := net.SplitHostPort(addr)
	dir := t.TempDir()
	cmd := exec.Command(bin, "--port", port, "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no",
		"--cluster-enabled", "yes", "--cluster-config-file", filepath.Join(dir, "nodes.conf"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	c := rawClient(t, "redis://"+addr+"/0")
	for i := 0; c.Ping(context.Background()).Err() != nil; i++ {
		if i == 100 {
			t.Fatal("the cluster node did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := Open("redis://"+addr+"/0", nil); err == nil || !strings.Contains(err.Error(), "Redis Cluster") {
		t.Errorf("a cluster node: %v", err)
	}
	if n, err := c.DBSize(context.Background()).Result(); err != nil || n != 0 {
		t.Errorf("the node holds %d keys (%v) after the open was refused", n, err)
	}
}

// A read that fails once the library is open (the server went away) makes Damaged an error: a
// check that got no candidates says so instead of reporting no copying.
func TestRedisServerGoneIsDamage(t *testing.T) {
	srv := redistest.Start(t)
	src := t.TempDir()
	lib := openLib(t, srv.URL(0), nil)
	defer lib.Close()
	add(t, lib, AddOptions{}, writeDoc(t, src, "a.txt", "A", prose[0], prose[3]))
	if err := lib.Damaged(); err != nil {
		t.Fatal(err)
	}
	q := segmenter(t).Prepare(prose[3])
	if got := lib.Candidates(q.Grams, q.SimHash, 3, 2, 0); len(got) == 0 {
		t.Fatal("the paragraph is not found while the server is up")
	}
	rawClient(t, srv.URL(0)).Shutdown(context.Background())
	if got := lib.Candidates(q.Grams, q.SimHash, 3, 2, 0); len(got) != 0 {
		t.Errorf("candidates without a server: %v", got)
	}
	if err := lib.Damaged(); err == nil {
		t.Error("Damaged is nil after a query the server did not answer")
	}
}

// The postings a library keeps of common grams follow what other processes add and remove.
func TestRedisPostingsCacheFollowsOtherWriters(t *testing.T) {
	url := redistest.Start(t).URL(0)
	src := t.TempDir()
	common := "软件包管理工具可以安装和升级系统中的程序，配置文件保存在用户的主目录下"
	var field []string
	for i := range 2 * redisPostsMin {
		field = append(field, fmt.Sprintf("%s %d。", common, i))
	}
	reader, writer := openLib(t, url, nil), openLib(t, url, nil)
	defer reader.Close()
	defer writer.Close()
	add(t, writer, AddOptions{}, writeDoc(t, src, "field.txt", "Field", field...))
	q := segmenter(t).Prepare(common)
	holds := func(doc uint64) bool {
		return slices.ContainsFunc(reader.Candidates(q.Grams, 0, -1, 2, 0), func(c Candidate) bool { return c.Doc == doc })
	}
	if !holds(1) {
		t.Fatal("the common paragraphs are not found")
	}
	if reader.store.(*redisStore).postsN < redisPostsMin {
		t.Fatal("the common grams' postings were not kept: the test tests nothing")
	}
	res := add(t, writer, AddOptions{}, writeDoc(t, src, "late.txt", "Late", common+"，后来加入。"))
	if !holds(res.Added[0].ID) {
		t.Error("a document another library added is not found by the grams whose postings were kept")
	}
	if err := writer.Remove(res.Added[0].ID); err != nil {
		t.Fatal(err)
	}
	if holds(res.Added[0].ID) {
		t.Error("a document another library removed is still found")
	}
}

// devset is the development set, from the package's folder.
const devset = "../../shared/devset"

// The same documents in a folder and on Redis give the same answers: for every paragraph of the
// submissions, the same candidates (ranked alike, with the same hits, scores and distances), the
// same boilerplate shares, similar documents and word weights.
func TestRedisMatchesFolder(t *testing.T) {
	var libs, subs []string
	for _, set := range []string{"zh-thesis", "en"} {
		libs = append(libs, filepath.Join(devset, set, "library"))
		s, _ := filepath.Glob(filepath.Join(devset, set, "submissions", "*"))
		subs = append(subs, s...)
	}
	if len(subs) == 0 {
		t.Fatalf("no submissions under %s: the test needs the development set", devset)
	}
	// One batch: every document is fingerprinted before any is counted (the weights an import
	// uses change with each batch it commits, at times that depend on the cores), and learned
	// weights from the first paragraph on.
	opts := &Options{BatchSize: 1 << 20, MinIDFParagraphs: 1}
	folder := openLib(t, t.TempDir(), opts)
	defer folder.Close()
	remote := openLib(t, redistest.Start(t).URL(0), opts)
	defer remote.Close()
	ra, fa := add(t, remote, AddOptions{}, libs...), add(t, folder, AddOptions{}, libs...)
	if len(fa.Added) < 20 || len(ra.Added) != len(fa.Added) {
		t.Fatalf("added %d to the folder, %d to Redis", len(fa.Added), len(ra.Added))
	}
	// The same descriptions, but for the time of adding: the two imports may straddle a second.
	f, r := list(t, folder), list(t, remote)
	for i := range min(len(f), len(r)) {
		if d := f[i].Added.Sub(r[i].Added); d < -time.Minute || d > time.Minute {
			t.Errorf("document %d: added at %v to the folder, at %v to Redis", f[i].ID, f[i].Added, r[i].Added)
		}
		f[i].Added, r[i].Added = time.Time{}, time.Time{}
	}
	if !reflect.DeepEqual(f, r) {
		t.Fatalf("List differs:\nfolder %+v\nredis  %+v", f, r)
	}
	for name, f := range map[string]func(l *Library) [2]int{
		"Stats":  func(l *Library) [2]int { d, p := l.Stats(); return [2]int{d, p} },
		"Counts": func(l *Library) [2]int { d, t := l.Counts(); return [2]int{d, t} },
		"Theses": func(l *Library) [2]int { n, _ := l.Theses(); return [2]int{n, 0} },
	} {
		if a, b := f(folder), f(remote); a != b {
			t.Errorf("%s: folder %v, redis %v", name, a, b)
		}
	}
	wf, wr := weights(t, folder), weights(t, remote)
	if wf == nil || wr == nil {
		t.Fatal("no learned weights")
	}
	seg := segmenter(t)
	compared, found := 0, 0
	for _, sub := range subs {
		d, err := prepare.Read(context.Background(), sub)
		if err != nil {
			t.Fatal(err)
		}
		d.FingerprintAll(seg, wf)
		var shingles []uint32
		for i, pr := range d.Prints {
			shingles = append(shingles, similarity.Shingles(pr.Tokens)...)
			for _, tok := range pr.Tokens {
				if wf(tok.Hash) != wr(tok.Hash) {
					t.Fatalf("%s: weight of word %x: folder %v, redis %v", sub, tok.Hash, wf(tok.Hash), wr(tok.Hash))
				}
			}
			for _, q := range []struct{ maxHamming, minHits, limit int }{{3, 2, 0}, {3, 2, 10}, {-1, 1, 5}, {6, 3, 1}} {
				cf := folder.Candidates(pr.Grams, pr.SimHash, q.maxHamming, q.minHits, q.limit)
				cr := remote.Candidates(pr.Grams, pr.SimHash, q.maxHamming, q.minHits, q.limit)
				if !reflect.DeepEqual(cf, cr) {
					t.Fatalf("%s paragraph %d, %+v: candidates\nfolder %v\nredis  %v", sub, i, q, cf, cr)
				}
				found += len(cf)
				var refs []ParaRef
				for _, c := range cf {
					if a, b := folder.SimHash(c.ParaRef), remote.SimHash(c.ParaRef); a != b {
						t.Fatalf("SimHash of %+v: folder %x, redis %x", c.ParaRef, a, b)
					}
					refs = append(refs, c.ParaRef)
				}
				pf, errf := folder.ParagraphsAt(refs)
				pr, errr := remote.ParagraphsAt(refs)
				if errf != nil || errr != nil || len(pf) != len(refs) || !reflect.DeepEqual(pf, pr) {
					t.Fatalf("%s paragraph %d: the candidates' paragraphs differ (folder: %v, redis: %v)", sub, i, errf, errr)
				}
			}
			for _, minDocs := range []int{2, 3} {
				for _, thesis := range []bool{false, true} {
					if a, b := folder.Boilerplate(pr.Grams, minDocs, thesis), remote.Boilerplate(pr.Grams, minDocs, thesis); a != b {
						t.Fatalf("%s paragraph %d: boilerplate (%d, %v): folder %v, redis %v", sub, i, minDocs, thesis, a, b)
					}
				}
			}
			compared++
		}
		sig := similarity.MinHash(shingles)
		if a, b := folder.SimilarDocuments(&sig), remote.SimilarDocuments(&sig); !slices.Equal(a, b) {
			t.Fatalf("%s: similar documents: folder %v, redis %v", sub, a, b)
		}
	}
	if compared < 100 || found == 0 {
		t.Fatalf("compared %d paragraphs, %d candidates: too few to say anything", compared, found)
	}
	// A paragraph that is not there fails the read and is named, whichever of those asked it is.
	for _, bad := range []struct {
		ref  ParaRef
		want error
	}{{ParaRef{f[0].ID, f[0].Paragraphs}, errNoParagraph}, {ParaRef{1 << 40, 0}, errNoDocument}} {
		for name, l := range map[string]*Library{"folder": folder, "redis": remote} {
			_, err := l.ParagraphsAt([]ParaRef{{f[0].ID, 0}, bad.ref})
			if !errors.Is(err, bad.want) || !strings.Contains(err.Error(), fmt.Sprintf("document %d paragraph %d:", bad.ref.Doc, bad.ref.Para)) {
				t.Errorf("%s: %+v: %v, want %v naming it", name, bad.ref, err, bad.want)
			}
		}
	}
	for _, l := range []*Library{folder, remote} {
		if err := l.Damaged(); err != nil {
			t.Error(err)
		}
	}
}

// randomDocs writes n documents of random sentences (each document its own) and returns their
// folder.
func randomDocs(t *testing.T, r *rand.Rand, dir string, n int) string {
	t.Helper()
	words := strings.Fields(prose[3] + " " + prose[4] + " " + prose[5])
	for i := range n {
		paras := make([]string, 3+r.Intn(4))
		for j := range paras {
			ws := make([]string, 25+r.Intn(30))
			for k := range ws {
				ws[k] = words[r.Intn(len(words))]
			}
			paras[j] = strings.Join(ws, " ") + "."
		}
		writeDoc(t, dir, fmt.Sprintf("doc%05d.txt", i), fmt.Sprintf("Document %d", r.Int63()), paras...)
	}
	return dir
}

// Two importers of the same folder at once, each with a library of its own on the same database:
// every document is added exactly once.
func TestRedisTwoImporters(t *testing.T) {
	url := redistest.Start(t).URL(0)
	src := randomDocs(t, rand.New(rand.NewSource(1)), t.TempDir(), 120)
	var wg sync.WaitGroup
	res := make([]AddResult, 2)
	errs := make([]error, 2)
	// Neither importer writes its first batch before the other has prepared its first document:
	// on a loaded machine one could otherwise be done before the other starts.
	var ready sync.WaitGroup
	ready.Add(2)
	for i := range res {
		lib := openLib(t, url, &Options{BatchSize: 3})
		defer lib.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i], errs[i] = lib.AddFiles(context.Background(), []string{src}, AddOptions{}, func(p AddProgress) {
				if p.Done == 1 {
					ready.Done()
					ready.Wait()
				}
			})
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	added := len(res[0].Added) + len(res[1].Added)
	if added != 120 || len(res[0].Duplicates)+len(res[1].Duplicates) != 120 {
		t.Errorf("added %d + %d, duplicates %d + %d; want 120 added in all, 120 duplicates",
			len(res[0].Added), len(res[1].Added), len(res[0].Duplicates), len(res[1].Duplicates))
	}
	t.Logf("added %d + %d", len(res[0].Added), len(res[1].Added))
	lib := openLib(t, url, nil)
	defer lib.Close()
	docs := list(t, lib)
	paths := map[string]bool{}
	for _, d := range docs {
		paths[d.Path] = true
	}
	if n, _ := lib.Counts(); len(docs) != 120 || len(paths) != 120 || n != 120 {
		t.Errorf("List holds %d documents of %d files, Counts %d; want 120", len(docs), len(paths), n)
	}
	c := rawClient(t, url)
	shas, err := c.Keys(context.Background(), "sha:*").Result()
	if err != nil || len(shas) != 120 {
		t.Errorf("%d sha keys (%v), want 120", len(shas), err)
	}
	want := 0
	for _, d := range docs {
		want += d.Paragraphs
	}
	if _, paras := lib.Stats(); paras != want {
		t.Errorf("Stats counts %d paragraphs, the documents have %d", paras, want)
	}
}

// stressFor is how long TestRedisCheckersAndImporters runs (the issue says a minute).
const stressFor = time.Minute

// Four checkers and two importers on one library for a minute: no error, and nothing lost: every
// document an importer added is listed, its paragraphs can be read, and a query with a paragraph's
// text finds that paragraph.
func TestRedisCheckersAndImporters(t *testing.T) {
	url := redistest.Start(t).URL(0)
	seg := segmenter(t)
	deadline := time.Now().Add(stressFor)
	var mu sync.Mutex
	var added []DocInfo
	var wg sync.WaitGroup
	errc := make(chan error, 64)
	report := func(err error) {
		select {
		case errc <- err:
		default:
		}
	}
	// findsItself checks one paragraph of a document the library holds.
	findsItself := func(lib *Library, d DocInfo, r *rand.Rand) error {
		n := 1 + r.Intn(d.Paragraphs-1) // not the title: a number and a word, no gram to find it by
		p, err := lib.ParagraphsAt([]ParaRef{{d.ID, n}})
		if err != nil {
			return err
		}
		q := seg.Prepare(p[0].Text)
		if !slices.ContainsFunc(lib.Candidates(q.Grams, 0, -1, 2, 0), func(c Candidate) bool { return c.ParaRef == ParaRef{d.ID, n} }) {
			return fmt.Errorf("document %d paragraph %d: not found by its own text", d.ID, n)
		}
		return nil
	}
	for i := range 2 {
		lib := openLib(t, url, &Options{BatchSize: 4})
		defer lib.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewSource(int64(100 + i)))
			for round := 0; time.Now().Before(deadline); round++ {
				dir := randomDocs(t, r, filepath.Join(t.TempDir(), fmt.Sprint(round)), 10)
				res, err := lib.AddFiles(context.Background(), []string{dir}, AddOptions{}, nil)
				if err == nil && len(res.Failed) > 0 {
					err = res.Failed[0]
				}
				if err != nil {
					report(fmt.Errorf("importer %d: %w", i, err))
					return
				}
				mu.Lock()
				added = append(added, res.Added...)
				mu.Unlock()
				// A pause between imports leaves the checkers a share of the two cores, and bounds
				// what is verified at the end.
				time.Sleep(250 * time.Millisecond)
			}
		}()
	}
	checks := make([]int, 4)
	for i := range checks {
		lib := openLib(t, url, &Options{ReadOnly: i%2 == 1})
		defer lib.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewSource(int64(i)))
			for time.Now().Before(deadline) {
				mu.Lock()
				if len(added) == 0 {
					mu.Unlock()
					time.Sleep(10 * time.Millisecond)
					continue
				}
				d := added[r.Intn(len(added))]
				mu.Unlock()
				if err := findsItself(lib, d, r); err != nil {
					report(fmt.Errorf("checker %d: %w", i, err))
					return
				}
				_, sig, err := lib.Doc(d.ID)
				if err == nil && !slices.Contains(lib.SimilarDocuments(&sig), d.ID) {
					err = fmt.Errorf("document %d: not similar to itself", d.ID)
				}
				if err == nil {
					_, err = lib.Weights()
				}
				if err == nil {
					err = lib.Damaged()
				}
				if err != nil {
					report(fmt.Errorf("checker %d: %w", i, err))
					return
				}
				checks[i]++
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	lib := openLib(t, url, nil)
	defer lib.Close()
	docs := list(t, lib)
	listed := map[uint64]DocInfo{}
	for _, d := range docs {
		listed[d.ID] = d
	}
	for _, d := range added {
		if l, ok := listed[d.ID]; !ok || l.Path != d.Path {
			t.Fatalf("document %d (%s) was added and is not listed", d.ID, d.Path)
		}
	}
	verify := make(chan DocInfo)
	errc = make(chan error, 64)
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewSource(int64(7 + i)))
			for d := range verify {
				ps, err := lib.Paragraphs(d.ID)
				if err == nil && len(ps) != d.Paragraphs {
					err = fmt.Errorf("document %d: %d paragraphs of %d", d.ID, len(ps), d.Paragraphs)
				}
				if err == nil {
					err = findsItself(lib, d, r)
				}
				if err != nil {
					report(err)
				}
			}
		}()
	}
	for _, d := range added {
		verify <- d
	}
	close(verify)
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	if n, _ := lib.Counts(); len(docs) != len(added) || n != len(added) || len(added) < 100 {
		t.Errorf("%d documents added, %d listed, Counts %d", len(added), len(docs), n)
	}
	t.Logf("%v: %d documents added by two importers, %v checks by four checkers", stressFor, len(added), checks)
}

// A value on the server that is not what the layout says is damage, said as a library on Redis says
// it: not with the folder's advice to run `library check` and `library repair`, which refuse it.
func TestRedisDamageAdvice(t *testing.T) {
	url := redistest.Start(t).URL(0)
	_, paths := harbourDocs(t, harbour...)
	lib := openLib(t, url, nil)
	defer lib.Close()
	res := add(t, lib, AddOptions{}, paths...)
	id := res.Added[0].ID
	if err := rawClient(t, url).Set(context.Background(), redisSimsKey(id), "xx", 0).Err(); err != nil {
		t.Fatal(err)
	}
	again := openLib(t, url, nil) // nothing of the document cached
	defer again.Close()
	again.SimHash(ParaRef{Doc: id})
	err := again.Damaged()
	if !errors.Is(err, ErrDamaged) || strings.Contains(err.Error(), "library repair") || !strings.Contains(err.Error(), "Redis server") {
		t.Errorf("damaged SimHashes: %v", err)
	}
}
