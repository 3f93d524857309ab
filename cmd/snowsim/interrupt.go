package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"snowtools/cmd/internal/cli"
)

// interruptWatch turns SIGINT (Ctrl-C), SIGTERM (a render farm's stop) and SIGUSR1
// (Slurm's warning that the time limit is near, which farm's batch scripts ask for
// with --signal=B:USR1@SECONDS and pass on before they requeue the job) into a clean
// stop: the first asks the run to stop after the frame it is simulating, with a
// checkpoint (snowRun.interrupted), so that -resume continues it; a second one, for a
// user who cannot wait for that frame, ends the process at once with 128 + the signal,
// as the signal's default would, saying how to continue from the newest checkpoint.
// The files it interrupts are temporary ones (cli.WriteFileAtomic), which the next
// run removes, and the folder's lock is taken over (cli.LockFolder).
type interruptWatch struct {
	signals chan os.Signal
	first   chan os.Signal // holds the first signal for the run loop
}

// watchInterrupts starts watching; log hears of each signal as it comes, and after a
// second one, what howToGoOn says.
func watchInterrupts(log io.Writer, howToGoOn func() string) *interruptWatch {
	w := &interruptWatch{signals: make(chan os.Signal, 2), first: make(chan os.Signal, 1)}
	signal.Notify(w.signals, stopSignals...)
	go func() {
		sig, ok := <-w.signals
		if !ok {
			return
		}
		fmt.Fprintf(log, "\nsnowsim: %v: stopping after this frame, with a checkpoint to resume from (again to stop at once)\n", sig)
		w.first <- sig
		if sig, ok = <-w.signals; !ok {
			return
		}
		fmt.Fprintf(log, "\nsnowsim: %v again: stopping now, in the middle of a frame; %s\n", sig, howToGoOn())
		os.Exit(128 + int(sig.(syscall.Signal)))
	}()
	return w
}

// signal returns the first signal, once it has come; nil before.
func (w *interruptWatch) signal() os.Signal {
	select {
	case sig := <-w.first:
		w.first <- sig
		return sig
	default:
		return nil
	}
}

// stop ends the watch: signals have their default effect again.
func (w *interruptWatch) stop() {
	signal.Stop(w.signals)
	close(w.signals)
}

// interrupted ends a run that sig stopped after frame f: it writes the checkpoint of
// frame f, unless the run just did, and returns the error that says what is written
// and the command that continues.
func (r *snowRun) interrupted(sig os.Signal, f int) error {
	if r.cps.last != f {
		if err := r.cps.write(f, r.sim); err != nil {
			return fmt.Errorf("%v: stopping after frame %d: %v", sig, f, err)
		}
	}
	return &cli.InterruptedError{Signal: sig.(syscall.Signal), Err: fmt.Errorf(
		"%v: stopped after frame %d of %d; frames %d-%d and the checkpoint %s are written; continue with:\n  %s",
		sig, f, r.sc.Last(), r.sc.Start, f, r.cps.path(f), r.opts.resumeCommand)}
}

// howToGoOn says how to continue after a stop in the middle of a frame: from the
// newest checkpoint on disk, if there is one. It reads only the folder, not the run's
// state, which the run loop is changing meanwhile.
func (r *snowRun) howToGoOn() string {
	frames, err := r.cps.list()
	if err != nil || len(frames) == 0 {
		return fmt.Sprintf("no checkpoint is written yet (%s): run again without -resume to start over", r.cps.names)
	}
	return fmt.Sprintf("continue from the checkpoint %s with:\n  %s", r.cps.path(frames[0]), r.opts.resumeCommand)
}

// resumeCommand is the command line that continues a run started with args: the
// same arguments with -resume, quoted for a POSIX shell.
func resumeCommand(args []string) string {
	words := []string{"snowsim", "-resume"}
	for _, a := range args {
		if name, _, _ := strings.Cut(strings.TrimPrefix(a, "-"), "="); name == "-resume" || name == "resume" {
			continue
		}
		words = append(words, cli.ShellQuote(a))
	}
	return strings.Join(words, " ")
}
