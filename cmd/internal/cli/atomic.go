// Package cli holds what the command-line tools share: the skeleton of a main (Run)
// with its flags and exit statuses, atomic and durable file output, the lock of an
// output folder, and progress reporting.
package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// WriteFileAtomic writes a file through write into a temporary file in the same folder
// and renames it to path only when write and the close succeed, so that a reader never
// sees a half-written file and a failed write leaves any earlier file at path intact.
//
// The write is also durable: the temporary file is synced to the disk before the
// rename and the folder after it, so that once WriteFileAtomic returns, a power cut or
// a kernel crash leaves either the whole new file at path or (before the return) the
// old one, never a renamed file of zeros or a name that points nowhere. (A rename
// alone orders nothing on ext4 or XFS: the data may still be in the page cache when the
// new name reaches the journal.)
//
// Errors name path and its folder, never the hidden temporary file, which the user
// has not heard of and which no longer exists when the error is read.
func WriteFileAtomic(path string, write func(w io.Writer) error) error {
	return writeFileAtomic(path, write, true)
}

// writeFileAtomic is WriteFileAtomic, with the syncs only when durable is set: the
// benchmark measures what they cost.
func writeFileAtomic(path string, write func(w io.Writer) error, durable bool) (err error) {
	f, err := CreateAtomic(path)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Abort()
		}
	}()
	bw := bufio.NewWriterSize(pathlessWriter{f.File}, 1<<20)
	if err := write(bw); err != nil {
		return f.failed(err)
	}
	if err := bw.Flush(); err != nil {
		return f.failed(err)
	}
	return f.commit(durable)
}

// An AtomicFile is a file being written in place of path, for a writer that must
// seek or patch what it wrote (an Alembic archive's header), which WriteFileAtomic's
// stream does not allow: the temporary file, created in path's folder, becomes path
// only at Commit, as WriteFileAtomic's does.
type AtomicFile struct {
	*os.File
	path, dir string
}

// CreateAtomic creates the temporary file that Commit renames to path, readable by
// all as os.Create's files are.
func CreateAtomic(path string) (*AtomicFile, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return nil, fmt.Errorf("writing %s: cannot create a file in the folder %s: %w", path, dir, pathless(err))
	}
	f := &AtomicFile{File: tmp, path: path, dir: dir}
	// CreateTemp makes the file private (0600); outputs are for renderers and other
	// users to read, as os.Create's would be.
	if err := tmp.Chmod(0o644); err != nil {
		f.Abort()
		return nil, f.failed(err)
	}
	return f, nil
}

// Commit syncs the file, closes it, renames it to path and syncs the folder (see
// WriteFileAtomic). After an error the file is removed and path left as it was.
func (f *AtomicFile) Commit() error {
	if err := f.commit(true); err != nil {
		f.Abort()
		return err
	}
	return nil
}

func (f *AtomicFile) commit(durable bool) error {
	if durable {
		if err := f.Sync(); err != nil {
			return f.failed(err)
		}
	}
	if err := f.Close(); err != nil {
		return f.failed(err)
	}
	if err := os.Rename(f.Name(), f.path); err != nil {
		return f.failed(err)
	}
	if durable {
		if err := syncDir(f.dir); err != nil {
			return fmt.Errorf("writing %s: syncing its folder %s: %w", f.path, f.dir, pathless(err))
		}
	}
	return nil
}

// Abort closes and removes the temporary file, leaving path as it was.
func (f *AtomicFile) Abort() {
	f.Close()
	os.Remove(f.Name())
}

// failed names path, not the temporary file, in an error of writing it.
func (f *AtomicFile) failed(err error) error {
	return fmt.Errorf("writing %s: %w", f.path, pathless(err))
}

// syncDir makes the names in the folder dir durable. A file system that cannot sync a
// folder (EINVAL: some network and FUSE ones) makes its renames durable by itself or
// not at all; that is no reason to fail a write.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, errors.ErrUnsupported) {
		err = nil
	}
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// pathless strips the path from an error of the file system ("open
// out/.snow.0001.prt.tmp123: permission denied" becomes "permission denied"), for
// errors that name the file in their own words.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// pathlessWriter is a file whose write errors do not name it (see pathless): a full
// disk is "no space left on device" in the error that names the output.
type pathlessWriter struct{ f *os.File }

func (w pathlessWriter) Write(b []byte) (int, error) {
	n, err := w.f.Write(b)
	if err != nil {
		err = pathless(err)
	}
	return n, err
}

// CheckWritable reports, before any work, whether a file can be written at path: its
// folder exists and takes new files (by creating and removing a hidden one there,
// which also answers for read-only mounts, ACLs and quotas that permission bits do not
// show), and path is not a folder. A tool that writes its output only at the end (a
// contact sheet, a report) calls it first, so that a mistyped or read-only folder
// fails in a second rather than after the work.
func CheckWritable(path string) error {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return fmt.Errorf("%s: is a folder; name the file to write", path)
	}
	dir := filepath.Dir(path)
	probe, err := os.CreateTemp(dir, "."+filepath.Base(path)+".probe*")
	if err != nil {
		if _, serr := os.Stat(dir); errors.Is(serr, fs.ErrNotExist) {
			return fmt.Errorf("%s: the folder %s does not exist", path, dir)
		}
		return fmt.Errorf("%s: cannot create a file in the folder %s: %w", path, dir, pathless(err))
	}
	probe.Close()
	return os.Remove(probe.Name())
}
