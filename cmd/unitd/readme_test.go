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
)

// TestREADMEExamples walks the README as a newcomer would, on a fresh
// clone: it copies the repository's tracked files into an empty directory
// and commits them there as the branch main (so that git revisions such as
// main and HEAD resolve), builds bin/unitd as make build does, starts the
// recipe of make run (read from the Makefile) on a free loopback port, and
// runs every command of every sh block of the README, in order, in one
// shell, from the clone's top directory.
//
// The commands run verbatim, with three substitutions: each loopback
// address 127.0.0.1:PORT (and redis-server's --port PORT) becomes a free
// port, 8080 the one make run listens on (which $UNITD_PUBLIC_URL says, as
// it would for a server on another address); the key placeholder uc_test_… is
// the key make run printed; and a make command is not run (make run is
// running already, make build has been done, make test is what runs this
// test). Every command must exit 0. Two kinds of comments are checked
// against a command's standard output:
//
//   - comment lines right under a command that start with {, " or http
//     show its output, … eliding parts: the other parts must appear in that
//     order (consecutive lines are joined);
//   - a comment at the end of a command's line that starts with a number
//     ("# 2.54 cm") gives the value and unit its output starts with.
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
	key := startMakeRun(t, clone, addr, env)

	cmds := readmeCommands(t, filepath.Join(clone, "README.md"))
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
		where := fmt.Sprintf("README.md:%d: %s", c.line, c.text)
		if !r.done {
			t.Errorf("%s\n\tdid not run to its end", where)
			continue
		}
		if r.exit != 0 {
			t.Errorf("%s\n\texit %d\n\tstdout: %s\n\tstderr: %s", where, r.exit, r.stdout, r.stderr)
			continue
		}
		if msg := c.check(r.stdout); msg != "" {
			t.Errorf("%s\n\t%s\n\tstdout: %s", where, msg, r.stdout)
		}
	}
	if ran < 20 {
		t.Errorf("only %d commands ran; the README parser lost some", ran)
	}
	t.Logf("%d README commands ran, %d make commands left to make", ran, len(cmds)-ran)
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

// startMakeRun runs the recipe of make run in clone with ADDR set to addr,
// its admin listener on a free port, and returns the test key it printed
// once the server answers.
func startMakeRun(t *testing.T, clone, addr string, env []string) string {
	t.Helper()
	recipe := makeRecipe(t, filepath.Join(clone, "Makefile"), "run")
	vars := strings.NewReplacer("$(ADDR)", addr, "$(RUNDIR)", ".run", "$(GO)", "go")
	for _, line := range recipe[:len(recipe)-1] {
		sh := exec.Command("sh", "-c", vars.Replace(line))
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
	server := exec.Command("sh", "-c", "exec "+vars.Replace(recipe[len(recipe)-1]))
	server.Dir = clone
	server.Env = append(env, "UNITD_ADMIN_ADDR=127.0.0.1:0")
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

// makeRecipe returns the command lines of target in a Makefile, without
// their leading @.
func makeRecipe(t *testing.T, makefile, target string) []string {
	t.Helper()
	data, err := os.ReadFile(makefile)
	if err != nil {
		t.Fatal(err)
	}
	var recipe []string
	in := false
	for line := range strings.SplitSeq(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, target+":"):
			in = true
		case in && strings.HasPrefix(line, "\t"):
			recipe = append(recipe, strings.TrimPrefix(strings.TrimPrefix(line, "\t"), "@"))
		case in:
			in = false
		}
	}
	if len(recipe) == 0 {
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

// readmeCmd is one command of a sh block of the README.
type readmeCmd struct {
	line     int    // of the README where it starts
	text     string // as printed, continuation lines included
	run      string // what the shell runs
	trailing string // the comment at the end of its (last) line
	output   string // the comment lines right under it, joined
	skip     string // why it is not run
}

// readmeCommands returns the commands of the README's sh blocks.
func readmeCommands(t *testing.T, path string) []readmeCmd {
	t.Helper()
	f, err := os.Open(path)
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
				cmds[last].output += text
			}
		default:
			c := readmeCmd{line: n, text: line}
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

// check compares stdout with what the command's comments say it prints,
// and returns what differs, or "".
func (c readmeCmd) check(stdout string) string {
	if o := c.output; strings.HasPrefix(o, "{") || strings.HasPrefix(o, `"`) || strings.HasPrefix(o, "http") {
		rest := stdout
		for part := range strings.SplitSeq(o, "…") {
			i := strings.Index(rest, part)
			if i < 0 {
				return fmt.Sprintf("the output shown under it has %q where the command prints otherwise", part)
			}
			rest = rest[i+len(part):]
		}
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
