package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/unitd/unitd/catalog"
)

// walkedDocs are the documents whose commands TestREADMEExamples runs,
// in this order: the README, then the guides by reader.
var walkedDocs = []string{"README.md", "docs/api.md", "docs/catalog.md", "docs/operators.md", "docs/development.md"}

// TestREADMEExamples walks the README and the guides of docs/ as a
// newcomer would, on a fresh clone: it copies the repository's tracked
// files into an empty directory and commits them there as the branch main
// (so that git revisions such as main and HEAD resolve), builds bin/unitd
// as make build does, starts the recipe of make run (as make prints it) on
// a free loopback port, and runs every command of every sh block of each
// of walkedDocs, in order, in one shell, from the clone's top directory.
//
// The commands run verbatim, with three substitutions: each loopback
// address 127.0.0.1:PORT (and redis-server's --port PORT) becomes a free
// port, 8080 the one make run listens on (which $UNITD_PUBLIC_URL says, as
// it would for a server on another address); the key placeholder uc_test_… is
// the key make run printed; and a make command is not run (make run is
// running already, make build has been done, make test is what runs this
// test). Every command must exit 0. Every documented output is checked:
//
//   - comment lines right under a command show its output, … eliding
//     parts: the other parts must appear in that order (consecutive lines
//     are joined, and so are the output's); a line that starts with
//     "stderr: " shows its standard error instead;
//   - a comment at the end of a command's line that starts with a number
//     ("# 2.54 cm") gives the value and unit its output starts with; any
//     other comment there is prose, and may not quote output (a ":
//     inside it), which goes on the lines under the command.
//
// At the end the clone holds no file the commands wrote outside .run/
// and bin/, which make clean removes.
func TestREADMEExamples(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	clone := freshClone(t, root)
	build := exec.Command("go", "build", "-o", filepath.Join(clone, "bin", "unitd"), "./cmd/unitd")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ports := portMap{}
	addr := ports.addr(t, "8080")
	env := append(cleanEnv(), "UNITD_PUBLIC_URL=http://"+addr)
	// The documents' make run is on 8080, so its store is .run/unitd.db.
	key := startMakeRun(t, clone, addr, env, "ADDR="+addr, "ADMIN_ADDR=127.0.0.1:0", "STORE=.run/unitd.db")
	// A second instance beside it, as the README has it: ADDR alone.
	second := "127.0.0.1:" + strconv.Itoa(portWithAdmin(t))
	secondKey := startMakeRun(t, clone, second, cleanEnv(), "ADDR="+second)
	for _, k := range []struct{ addr, key string }{{addr, key}, {second, secondKey}} {
		req, _ := http.NewRequest(http.MethodGet, "http://"+k.addr+"/v1/convert?value=1&from=in&to=cm", nil)
		req.Header.Set("Authorization", "Bearer "+k.key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("make run ADDR=%s: its key answers %d beside the other instance", k.addr, resp.StatusCode)
		}
	}

	var cmds []readmeCmd
	for _, doc := range walkedDocs {
		cmds = append(cmds, readmeCommands(t, clone, doc)...)
	}
	for i := range cmds {
		cmds[i].run = ports.substitute(t, strings.ReplaceAll(cmds[i].text, "uc_test_…", key))
		cmds[i].output = ports.substitute(t, cmds[i].output)
	}
	results := runShell(t, clone, cmds, env)
	ran := 0
	for i, c := range cmds {
		if c.skip != "" {
			continue
		}
		ran++
		r := results[i]
		where := fmt.Sprintf("%s:%d: %s", c.doc, c.line, c.text)
		if !r.done {
			t.Errorf("%s\n\tdid not run to its end", where)
			continue
		}
		if r.exit != 0 {
			t.Errorf("%s\n\texit %d\n\tstdout: %s\n\tstderr: %s", where, r.exit, r.stdout, r.stderr)
			continue
		}
		if msg := c.check(r.stdout, r.stderr); msg != "" {
			t.Errorf("%s\n\t%s\n\tstdout: %s\n\tstderr: %s", where, msg, r.stdout, r.stderr)
		}
	}
	if ran < 100 {
		t.Errorf("only %d commands ran; the parser lost some", ran)
	}
	t.Logf("%d commands of %s ran, %d make commands left to make", ran, strings.Join(walkedDocs, ", "), len(cmds)-ran)
	if left := strayFiles(t, clone); len(left) > 0 {
		t.Errorf("the commands left files outside .run/ and bin/, where make clean does not find them: %s", strings.Join(left, ", "))
	}
}

// strayFiles lists the files in clone that git does not track, outside
// .run/ and bin/.
func strayFiles(t *testing.T, clone string) []string {
	t.Helper()
	cmd := exec.Command("git", "status", "--porcelain", "--ignored", "--untracked-files=all")
	cmd.Dir = clone
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git status: %v", err)
	}
	var stray []string
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		name := strings.TrimSpace(line[min(len(line), 2):])
		if name == "" || strings.HasPrefix(name, ".run/") || strings.HasPrefix(name, "bin/") {
			continue
		}
		stray = append(stray, name)
	}
	return stray
}

// freshClone copies the tracked files of the repository at root into a
// new directory and commits them there as the branch main.
func freshClone(t *testing.T, root string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v (the README walk needs a git checkout)", err)
	}
	clone := t.TempDir()
	for name := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		src, dst := filepath.Join(root, name), filepath.Join(clone, name)
		fi, err := os.Lstat(src)
		if err != nil {
			if os.IsNotExist(err) {
				continue // deleted in the working tree
			}
			t.Fatal(err)
		}
		if !fi.Mode().IsRegular() {
			continue
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"-c", "init.defaultBranch=main", "init", "-q"},
		{"add", "-A"},
		{"-c", "user.name=newcomer", "-c", "user.email=newcomer@example.com", "commit", "-q", "--no-verify", "--no-gpg-sign", "-m", "a fresh clone"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = clone
		cmd.Env = append(cleanEnv(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return clone
}

// cleanEnv is the environment without UNITD_ variables, as a newcomer's
// shell would be.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "UNITD_") {
			env = append(env, kv)
		}
	}
	return env
}

// startMakeRun runs the recipe of make run in clone, as make prints it
// with vars (make build has been done), and returns the test key it
// printed once the server answers on addr.
func startMakeRun(t *testing.T, clone, addr string, env []string, vars ...string) string {
	t.Helper()
	recipe := makeRecipe(t, clone, "run", vars...)
	for _, line := range recipe[:len(recipe)-1] {
		sh := exec.Command("sh", "-c", line)
		sh.Dir = clone
		if out, err := sh.CombinedOutput(); err != nil {
			t.Fatalf("make run: %s: %v\n%s", line, err, out)
		}
	}
	dir := t.TempDir()
	stdout, stderr := filepath.Join(dir, "stdout"), filepath.Join(dir, "stderr")
	outF, err := os.Create(stdout)
	if err != nil {
		t.Fatal(err)
	}
	errF, err := os.Create(stderr)
	if err != nil {
		t.Fatal(err)
	}
	server := exec.Command("sh", "-c", "exec "+recipe[len(recipe)-1])
	server.Dir = clone
	server.Env = env
	server.Stdout, server.Stderr = outF, errF
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	outF.Close()
	errF.Close()
	exited := make(chan struct{})
	go func() { server.Wait(); close(exited) }()
	t.Cleanup(func() {
		server.Process.Signal(syscall.SIGTERM)
		<-exited
	})
	keyLine := regexp.MustCompile(`(?m)^\s*(uc_test_[A-Za-z0-9_-]{43})$`)
	var key string
	waitFor(t, "make run to print its key and answer", func() bool {
		select {
		case <-exited:
			log, _ := os.ReadFile(stderr)
			t.Fatalf("make run exited:\n%s", log)
		default:
		}
		if key == "" {
			out, _ := os.ReadFile(stdout)
			if m := keyLine.FindSubmatch(out); m != nil {
				key = string(m[1])
			}
		}
		resp, err := http.Get("http://" + addr + "/v1/health")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return key != "" && resp.StatusCode == http.StatusOK
	})
	return key
}

// makeRecipe returns the command lines of target as make prints them
// (make -n) in dir with the variables vars, its prerequisites taken as
// made.
func makeRecipe(t *testing.T, dir, target string, vars ...string) []string {
	t.Helper()
	args := append([]string{"--no-print-directory", "-n", "-o", "build", target}, vars...)
	cmd := exec.Command("make", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("make %s: %v", strings.Join(args, " "), err)
	}
	recipe := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(recipe) == 0 || recipe[0] == "" {
		t.Fatalf("the Makefile has no recipe for %s", target)
	}
	return recipe
}

// portMap gives each loopback port of the README a free port.
type portMap map[string]string

var portRef = regexp.MustCompile(`(127\.0\.0\.1:|--port )([0-9]+)`)

func (m portMap) port(t *testing.T, readme string) string {
	t.Helper()
	if p, ok := m[readme]; ok {
		return p
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	m[readme] = strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	return m[readme]
}

func (m portMap) addr(t *testing.T, readme string) string { return "127.0.0.1:" + m.port(t, readme) }

func (m portMap) substitute(t *testing.T, s string) string {
	return portRef.ReplaceAllStringFunc(s, func(ref string) string {
		sub := portRef.FindStringSubmatch(ref)
		return sub[1] + m.port(t, sub[2])
	})
}

// readmeCmd is one command of a sh block of a document.
type readmeCmd struct {
	doc      string // the document, from the repository's top directory
	line     int    // of the document where it starts
	text     string // as printed, continuation lines included
	run      string // what the shell runs
	trailing string // the comment at the end of its (last) line
	output   string // the comment lines right under it, joined
	stderr   string // those of them that start with "stderr: ", joined
	skip     string // why it is not run
}

// readmeCommands returns the commands of the sh blocks of doc, a path
// from root.
func readmeCommands(t *testing.T, root, doc string) []readmeCmd {
	t.Helper()
	f, err := os.Open(filepath.Join(root, doc))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cmds []readmeCmd
	sc := bufio.NewScanner(f)
	inBlock, n, last := false, 0, -1 // last: the command comment lines attach to
	var cont *readmeCmd
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			inBlock, last, cont = line == "```sh", -1, nil
			continue
		}
		if !inBlock {
			continue
		}
		if cont != nil { // a continuation line
			cont.text += "\n" + line
			if !strings.HasSuffix(line, `\`) {
				cont.trailing = trailingComment(line)
				cont = nil
			}
			continue
		}
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			last = -1
		case strings.HasPrefix(trimmed, "#"):
			if last >= 0 {
				text := strings.TrimSpace(strings.TrimPrefix(trimmed, "#"))
				if e, ok := strings.CutPrefix(text, "stderr: "); ok {
					cmds[last].stderr += e
				} else {
					cmds[last].output += text
				}
			}
		default:
			c := readmeCmd{doc: doc, line: n, text: line}
			if strings.HasPrefix(trimmed, "make ") || trimmed == "make" {
				c.skip = "make"
			}
			cmds = append(cmds, c)
			last = len(cmds) - 1
			if strings.HasSuffix(line, `\`) {
				cont = &cmds[last]
			} else {
				cmds[last].trailing = trailingComment(line)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cmds
}

// trailingComment returns the text after a shell comment's # on line, or
// "": a # that starts a word outside quotes.
func trailingComment(line string) string {
	var quote byte
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return strings.TrimSpace(line[i+1:])
		}
	}
	return ""
}

var startsWithNumber = regexp.MustCompile(`^-?[0-9]`)

// shows checks that out has the parts of shown, the joined comment lines
// with … eliding, in order, and returns what differs, or "". The comment
// lines are joined as one, so the output's line breaks are too.
func shows(shown, out string) string {
	if shown == "" {
		return ""
	}
	rest := strings.ReplaceAll(out, "\n", "")
	for part := range strings.SplitSeq(shown, "…") {
		i := strings.Index(rest, part)
		if i < 0 {
			return fmt.Sprintf("has %q where the command prints otherwise", part)
		}
		rest = rest[i+len(part):]
	}
	return ""
}

// check compares the outputs with what the command's comments say it
// prints, and returns what differs, or "".
func (c readmeCmd) check(stdout, stderr string) string {
	if msg := shows(c.output, stdout); msg != "" {
		return "the output shown under it " + msg
	}
	if msg := shows(c.stderr, stderr); msg != "" {
		return "the standard error shown under it " + msg
	}
	if tr := c.trailing; !startsWithNumber.MatchString(tr) && strings.Contains(tr, `":`) {
		return fmt.Sprintf("its comment %q quotes output, which goes on the lines under it, where it is checked", tr)
	}
	if tr := c.trailing; startsWithNumber.MatchString(tr) {
		want := strings.Fields(tr)
		got := strings.Fields(strings.SplitN(stdout, "\n", 2)[0])
		if len(want) < 2 || len(got) < 2 || got[0] != want[0] || got[1] != strings.TrimRight(want[1], ",;:.") {
			return fmt.Sprintf("the comment says it prints %q", tr)
		}
	}
	return ""
}

// cmdResult is what one command did.
type cmdResult struct {
	done           bool
	exit           int
	stdout, stderr string
}

// runShell runs the commands that are not skipped in one sh process, in
// clone, with a marker before and after each on both outputs, and returns
// each command's outputs and exit status. Whatever the commands leave
// running in the background is stopped at the end.
func runShell(t *testing.T, clone string, cmds []readmeCmd, env []string) []cmdResult {
	t.Helper()
	var script strings.Builder
	for i, c := range cmds {
		if c.skip != "" {
			continue
		}
		fmt.Fprintf(&script, "printf '\\036%d\\n'; printf '\\036%d\\n' >&2\n%s\nprintf '\\036%d=%%d\\n' $?\n", i, i, c.run, i)
	}
	dir := t.TempDir()
	stdoutPath, stderrPath := filepath.Join(dir, "stdout"), filepath.Join(dir, "stderr")
	outF, err := os.Create(stdoutPath)
	if err != nil {
		t.Fatal(err)
	}
	errF, err := os.Create(stderrPath)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-outOfTime(t):
			cancel()
		case <-ctx.Done():
		}
	}()
	sh := exec.CommandContext(ctx, "sh", "-c", script.String())
	sh.Dir = clone
	sh.Env = env
	sh.Stdout, sh.Stderr = outF, errF
	sh.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	sh.Cancel = func() error { return syscall.Kill(-sh.Process.Pid, syscall.SIGKILL) }
	err = sh.Run()
	// Stop what the commands started in the background (servers).
	syscall.Kill(-sh.Process.Pid, syscall.SIGTERM)
	outF.Close()
	errF.Close()
	if ctx.Err() != nil {
		t.Errorf("the README's commands were still running when the test binary's time ran out")
	} else if err != nil {
		t.Errorf("sh: %v", err)
	}
	results := make([]cmdResult, len(cmds))
	split := func(path string, f func(i int, text string)) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for part := range strings.SplitSeq(string(data), "\036") {
			head, body, _ := strings.Cut(part, "\n")
			if i, err := strconv.Atoi(head); err == nil && i < len(cmds) {
				f(i, body)
			} else if h, code, ok := strings.Cut(head, "="); ok {
				if i, err := strconv.Atoi(h); err == nil && i < len(cmds) {
					results[i].done = true
					results[i].exit, _ = strconv.Atoi(code)
				}
			}
		}
	}
	split(stdoutPath, func(i int, text string) { results[i].stdout = text })
	split(stderrPath, func(i int, text string) { results[i].stderr = text })
	// Background servers write their logs until they stop.
	waitGone(t, -sh.Process.Pid)
	return results
}

// waitGone waits until no process of the group pgid (negative) is left.
func waitGone(t *testing.T, pgid int) {
	t.Helper()
	waitFor(t, "the README's background processes to stop", func() bool {
		return syscall.Kill(pgid, 0) != nil
	})
}

// catalogFigures finds the catalog's size where a document states it:
// "132 categories and 2,216 units", "132 categories, 2216 units".
var catalogFigures = regexp.MustCompile(`([0-9][0-9,]*) categories(?: and|,)\s+(?:over\s+)?([0-9][0-9,]*) units`)

// TestREADMEFigures: the size of the catalog, wherever the README and the
// guides state it, is the shipped catalog's.
func TestREADMEFigures(t *testing.T) {
	// The embedded snapshot, which unitd serves: catalog's tests hold it
	// to the catalog compiled from catalog/data.
	g, errs := catalog.LoadEmbedded()
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []int{len(g.Categories()), len(g.Units())}
	found := 0
	for _, doc := range walkedDocs {
		text, err := os.ReadFile(filepath.Join("..", "..", doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range catalogFigures.FindAllSubmatch(text, -1) {
			found++
			for i, what := range []string{"categories", "units"} {
				n, err := strconv.Atoi(strings.ReplaceAll(string(m[i+1]), ",", ""))
				if err != nil || n != want[i] {
					t.Errorf("%s says %q: the catalog has %d %s", doc, m[0], want[i], what)
				}
			}
			if strings.Contains(string(m[0]), "over") {
				t.Errorf("%s says %q: say how many", doc, m[0])
			}
		}
	}
	if found == 0 {
		t.Errorf("no document states the catalog's size (N categories and N units)")
	}
}
