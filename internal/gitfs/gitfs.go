// Package gitfs reads one directory of a git revision as an fs.FS, straight
// from the object database: no checkout, no work tree touched. unitd diff
// uses it to load the catalog of two revisions with the ordinary loader.
package gitfs

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"path"
	"strconv"
	"strings"
	"testing/fstest"
	"time"
)

// Open returns the regular files directly in dir (a slash-separated path
// from the repository root, such as "catalog/data") at revision rev of the
// repository that contains repoDir. Subdirectories are left out. The files
// are read into memory at once.
func Open(repoDir, rev, dir string) (fs.FS, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("revision %q: must not start with -", rev)
	}
	commit, err := git(ctx, repoDir, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("revision %q: not a commit of the repository at %s", rev, repoDir)
	}
	id := strings.TrimSpace(string(commit))
	dir = strings.Trim(path.Clean("/"+dir), "/")
	treeish := id
	if dir != "" {
		treeish = id + ":" + dir
	}
	// ls-tree of "<commit>:<dir>" lists the directory's entries with
	// names relative to it.
	out, err := git(ctx, repoDir, nil, "ls-tree", "-z", "--end-of-options", treeish)
	if err != nil {
		return nil, fmt.Errorf("revision %q: reading directory %q: %w", rev, dir, err)
	}
	type entry struct{ name, object string }
	var blobs []entry
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		// "<mode> SP <type> SP <object> TAB <name>"
		meta, name, ok := strings.Cut(string(rec), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			return nil, fmt.Errorf("revision %q: unexpected ls-tree line %q", rev, rec)
		}
		if f[1] == "blob" && (f[0] == "100644" || f[0] == "100755") {
			blobs = append(blobs, entry{name, f[2]})
		}
	}
	// One cat-file process reads every blob.
	var req bytes.Buffer
	for _, b := range blobs {
		req.WriteString(b.object + "\n")
	}
	out, err = git(ctx, repoDir, &req, "cat-file", "--batch")
	if err != nil {
		return nil, fmt.Errorf("revision %q: reading files of %q: %w", rev, dir, err)
	}
	files := fstest.MapFS{}
	r := bufio.NewReader(bytes.NewReader(out))
	for _, b := range blobs {
		data, err := readBatchObject(r, b.object)
		if err != nil {
			return nil, fmt.Errorf("revision %q: reading %s/%s: %w", rev, dir, b.name, err)
		}
		files[b.name] = &fstest.MapFile{Data: data, Mode: 0o444}
	}
	return files, nil
}

// readBatchObject reads one "<object> blob <size>\n<data>\n" record of
// git cat-file --batch.
func readBatchObject(r *bufio.Reader, object string) ([]byte, error) {
	header, err := r.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("cat-file header: %w", err)
	}
	f := strings.Fields(header)
	if len(f) != 3 || f[0] != object || f[1] != "blob" {
		return nil, fmt.Errorf("cat-file: unexpected header %q", strings.TrimSpace(header))
	}
	size, err := strconv.Atoi(f[2])
	if err != nil || size < 0 {
		return nil, fmt.Errorf("cat-file: bad size in %q", strings.TrimSpace(header))
	}
	data := make([]byte, size+1) // the content and its trailing newline
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, fmt.Errorf("cat-file: %w", err)
	}
	return data[:size], nil
}

// git runs git in dir and returns its standard output; a failure carries
// git's standard error.
func git(ctx context.Context, dir string, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, err
	}
	return stdout.Bytes(), nil
}
