// Package localslurm starts and stops a private one-node Slurm cluster of this
// machine: munged, slurmctld and slurmd with their own key, slurm.conf, state,
// spool, log and pid files under one folder, on free ports, so that farm jobs can be
// tried (and tested) without a cluster and without touching the machine's own Slurm
// or munge. `farm cluster up|down DIR` and the farm tests both use it.
//
// The node is this machine with its real CPU count and memory (/proc/cpuinfo's
// processors through runtime.NumCPU, /proc/meminfo's MemTotal). The configuration
// is the smallest one that runs batch and array jobs, dependencies, signals and
// requeues: no MPI (MpiDefault=none), processes tracked by their parent pids
// (proctrack/linuxproc: no cgroups needed), no task binding, no accounting.
package localslurm

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// RequireEnv names the environment variable that turns a missing Slurm into a test
// failure instead of a skip (.ci/run sets it).
const RequireEnv = "SNOWTOOLS_REQUIRE_SLURM"

// Programs are the Slurm and munge programs a cluster needs: the three daemons and
// the commands that the farm and its jobs run.
var Programs = []string{"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "scancel"}

// Missing returns an error naming the Programs that are not installed, or nil.
// The daemons live in /usr/sbin, which a user's PATH may lack, so it is searched too.
func Missing() error {
	var missing []string
	for _, p := range Programs {
		if _, err := find(p); err != nil {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("Slurm is not installed (no %s): apt-get install slurm-wlm munge", strings.Join(missing, ", "))
	}
	return nil
}

// find returns the path of a program on PATH or in /usr/sbin.
func find(program string) (string, error) {
	if path, err := exec.LookPath(program); err == nil {
		return path, nil
	}
	return exec.LookPath(filepath.Join("/usr/sbin", program))
}

// A Cluster is a private cluster's folder. Its layout:
//
//	etc/slurm.conf, etc/munge.key   configuration and key (etc is private to the owner)
//	run/                            munge's socket and every daemon's pid file
//	state/, spool/                  slurmctld's saved state, slurmd's spool
//	log/                            each daemon's log
type Cluster struct{ Dir string }

// Conf is the path of the cluster's slurm.conf: SLURM_CONF for every Slurm command.
func (c Cluster) Conf() string { return filepath.Join(c.Dir, "etc", "slurm.conf") }

// Env returns the environment entry that points Slurm's commands at the cluster.
func (c Cluster) Env() string { return "SLURM_CONF=" + c.Conf() }

func (c Cluster) path(parts ...string) string {
	return filepath.Join(append([]string{c.Dir}, parts...)...)
}

// daemons are the daemons in the order Up starts them (Down stops them in reverse).
var daemons = []string{"munged", "slurmctld", "slurmd"}

func (c Cluster) pidFile(daemon string) string { return c.path("run", daemon+".pid") }

// Up starts a cluster in dir (made if missing) and waits until its node takes jobs.
// A cluster already running there is an error; one whose daemons are gone (the
// machine rebooted) is started afresh. After a failure the daemons it started are
// stopped again.
func Up(dir string) (*Cluster, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: abs}
	if err := c.checkFolder(dir); err != nil {
		return nil, err
	}
	if err := Missing(); err != nil {
		return nil, err
	}
	for _, d := range daemons {
		if pid, ok := c.running(d); ok {
			return nil, fmt.Errorf("%s: a cluster runs there already (%s, pid %d): farm cluster down %s first", dir, d, pid, dir)
		}
	}
	if err := c.prepare(); err != nil {
		return nil, err
	}
	if err := c.start(); err != nil {
		c.stopDaemons()
		return nil, err
	}
	return c, nil
}

// ErrNoCluster is Down's error for a folder where Up never started a cluster.
var ErrNoCluster = errors.New("no cluster there")

// confHeader is the first line of the slurm.conf that Up writes: it marks a folder
// as a cluster's.
const confHeader = "# A private one-node cluster written by snowtools' localslurm (farm cluster up)."

// checkFolder refuses a folder that holds other files than a cluster's (a typo such
// as farm cluster up ~ must not chmod a home and fill it with Slurm's folders): Up
// takes a folder that does not exist, an empty one, or one of an earlier cluster.
func (c *Cluster) checkFolder(dir string) error {
	entries, err := os.ReadDir(c.Dir)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(entries) == 0) {
		return nil
	}
	if err != nil {
		return err
	}
	if !c.isCluster() {
		return fmt.Errorf("%s: the folder holds files, but no cluster's %s: give a new or empty folder", dir, c.Conf())
	}
	return nil
}

// isCluster reports whether the folder holds a cluster's slurm.conf, written by Up.
func (c Cluster) isCluster() bool {
	f, err := os.Open(c.Conf())
	if err != nil {
		return false
	}
	defer f.Close()
	first := make([]byte, len(confHeader))
	_, err = io.ReadFull(f, first)
	return err == nil && string(first) == confHeader
}

// prepare makes the folders, the munge key and slurm.conf. munged insists that its
// socket's folder be reachable by everyone (its clients run as any user) and its
// key readable by its owner alone.
func (c *Cluster) prepare() error {
	for _, d := range []string{"", "run", "state", "spool", "log"} {
		if err := os.MkdirAll(c.path(d), 0o755); err != nil {
			return err
		}
		if err := os.Chmod(c.path(d), 0o755); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(c.path("etc"), 0o700); err != nil {
		return err
	}
	key := make([]byte, 1024)
	rand.Read(key)
	keyFile := c.path("etc", "munge.key")
	os.Remove(keyFile) // a key of an earlier run is read-only
	if err := os.WriteFile(keyFile, key, 0o400); err != nil {
		return err
	}
	conf, err := c.config()
	if err != nil {
		return err
	}
	if err := os.WriteFile(c.Conf(), []byte(conf), 0o644); err != nil {
		return err
	}
	// slurmd and the jobs' commands read slurm.conf as the job's user.
	return os.Chmod(c.path("etc"), 0o755)
}

// config returns slurm.conf: this host as controller and only node, with its CPUs
// and memory, on two free ports.
func (c *Cluster) config() (string, error) {
	host, err := os.Hostname()
	if err != nil {
		return "", err
	}
	host, _, _ = strings.Cut(host, ".") // slurmctld compares the short name
	ports, err := freePorts(2)
	if err != nil {
		return "", err
	}
	memory, err := memoryMB()
	if err != nil {
		return "", err
	}
	me, err := user.Current()
	if err != nil {
		return "", err
	}
	cpus := runtime.NumCPU()
	lines := []string{
		confHeader,
		"ClusterName=snowtools",
		fmt.Sprintf("SlurmctldHost=%s(127.0.0.1)", host),
		fmt.Sprintf("SlurmctldPort=%d", ports[0]),
		fmt.Sprintf("SlurmdPort=%d", ports[1]),
		"AuthType=auth/munge",
		"CredType=cred/munge",
		// cred_expire also delays a requeued job's restart (121 s by default).
		fmt.Sprintf("AuthInfo=socket=%s,cred_expire=10", c.path("run", "munge.socket")),
		"SlurmUser=" + me.Username,
		"SlurmdUser=" + me.Username,
		"StateSaveLocation=" + c.path("state"),
		"SlurmdSpoolDir=" + c.path("spool"),
		"SlurmctldPidFile=" + c.pidFile("slurmctld"),
		"SlurmdPidFile=" + c.pidFile("slurmd"),
		"SlurmctldLogFile=" + c.path("log", "slurmctld.log"),
		"SlurmdLogFile=" + c.path("log", "slurmd.log"),
		"MpiDefault=none",
		"ProctrackType=proctrack/linuxproc",
		"TaskPlugin=task/none",
		"JobAcctGatherType=jobacct_gather/none",
		"AccountingStorageType=accounting_storage/none",
		"JobCompType=jobcomp/none",
		// The FIFO scheduler, every second: a test's jobs start at once.
		"SchedulerType=sched/builtin",
		"SchedulerParameters=sched_interval=1",
		"SelectType=select/cons_tres",
		"SelectTypeParameters=CR_Core_Memory",
		fmt.Sprintf("DefMemPerCPU=%d", memory/cpus), // else a job takes the whole node's memory
		"ReturnToService=2",
		"KillWait=10",
		"MinJobAge=3600", // without accounting, finished jobs are known only while the controller keeps them
		"SlurmdParameters=config_overrides",
		fmt.Sprintf("NodeName=%s NodeAddr=127.0.0.1 CPUs=%d RealMemory=%d State=UNKNOWN", host, cpus, memory),
		fmt.Sprintf("PartitionName=main Nodes=%s Default=YES MaxTime=INFINITE State=UP", host),
	}
	return strings.Join(lines, "\n") + "\n", nil
}

// memoryMB is the machine's memory in MB, from /proc/meminfo's MemTotal (kB), as
// slurmd reports it.
func memoryMB() (int, error) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				return 0, fmt.Errorf("/proc/meminfo: %q: %v", line, err)
			}
			return kb / 1024, nil
		}
	}
	return 0, errors.New("/proc/meminfo: no MemTotal")
}

// freePorts returns n TCP ports that were free a moment ago on the loopback.
func freePorts(n int) ([]int, error) {
	var ports []int
	var listeners []net.Listener
	defer func() {
		for _, l := range listeners {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		listeners = append(listeners, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// start starts the daemons, each forking into the background and writing its pid
// file, and waits until the node is idle.
func (c *Cluster) start() error {
	conf := c.Conf()
	commands := map[string][]string{
		"munged": {"--socket=" + c.path("run", "munge.socket"), "--key-file=" + c.path("etc", "munge.key"),
			"--pid-file=" + c.pidFile("munged"), "--log-file=" + c.path("log", "munged.log"),
			"--seed-file=" + c.path("state", "munged.seed"),
			"--force"}, // the folder may sit in a private one (a test's, a home): its clients are us
		"slurmctld": {"-f", conf},
		"slurmd":    {"-f", conf},
	}
	for _, d := range daemons {
		if err := c.startDaemon(d, commands[d]); err != nil {
			return err
		}
	}
	return c.waitIdle(30 * time.Second)
}

// startDaemon runs a daemon that forks into the background, and waits for its pid
// file. Its own output (before it forks) goes to log/DAEMON.start.log, a file rather
// than a pipe, which the forked daemon would hold open.
func (c *Cluster) startDaemon(daemon string, args []string) error {
	path, err := find(daemon)
	if err != nil {
		return err
	}
	out, err := os.Create(c.path("log", daemon+".start.log"))
	if err != nil {
		return err
	}
	defer out.Close()
	os.Remove(c.pidFile(daemon))
	cmd := exec.Command(path, args...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Env = append(os.Environ(), c.Env())
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %v%s", daemon, err, c.logTail(daemon))
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if _, ok := c.running(daemon); ok {
			return nil
		}
	}
	return fmt.Errorf("%s did not start: no pid file %s%s", daemon, c.pidFile(daemon), c.logTail(daemon))
}

// logTail returns the last lines of a daemon's logs, for an error.
func (c *Cluster) logTail(daemon string) string {
	var text []byte
	for _, name := range []string{daemon + ".start.log", daemon + ".log"} {
		b, _ := os.ReadFile(c.path("log", name))
		text = append(text, b...)
	}
	lines := strings.Split(strings.TrimSpace(string(text)), "\n")
	if len(lines) == 0 || lines[0] == "" {
		return ""
	}
	return "; its log ends:\n  " + strings.Join(lines[max(0, len(lines)-5):], "\n  ")
}

// waitIdle waits until the node's state is IDLE: slurmd has registered.
func (c *Cluster) waitIdle(timeout time.Duration) error {
	var state []byte
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		cmd := exec.Command("sinfo", "-h", "-o", "%T")
		cmd.Env = append(os.Environ(), c.Env())
		state, _ = cmd.Output()
		if bytes.HasPrefix(bytes.TrimSpace(state), []byte("idle")) {
			return nil
		}
	}
	return fmt.Errorf("the node is not idle after %v (sinfo: %q)%s", timeout, bytes.TrimSpace(state), c.logTail("slurmd"))
}

// Running reports whether the cluster's three daemons run: jobs can be submitted.
func (c Cluster) Running() bool {
	for _, d := range daemons {
		if _, ok := c.running(d); !ok {
			return false
		}
	}
	return true
}

// running returns the pid in a daemon's pid file when that process is alive and is
// the daemon of this cluster (its command line names the cluster's folder, so that a
// pid reused by another process after a reboot is not taken for it).
func (c Cluster) running(daemon string) (int, bool) {
	b, err := os.ReadFile(c.pidFile(daemon))
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0, false
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || !bytes.Contains(cmdline, []byte(daemon)) || !bytes.Contains(cmdline, []byte(c.Dir+"/")) {
		return 0, false
	}
	return pid, true
}

// Down cancels the jobs of the cluster in dir, then stops its daemons by the pids in
// their pid files (SIGTERM, then SIGKILL after 10 s), and only those. The folder
// stays, with its logs. A cluster that is not running (stopped before, or its
// daemons killed) is no error; a folder that holds no cluster is (a typo).
func Down(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	c := &Cluster{Dir: abs}
	if !c.isCluster() {
		return fmt.Errorf("%s: %w (no %s written by farm cluster up): nothing to stop", dir, ErrNoCluster, c.Conf())
	}
	if _, ok := c.running("slurmctld"); ok {
		cmd := exec.Command("scancel", "--full", "--user="+currentUser())
		cmd.Env = append(os.Environ(), c.Env())
		cmd.Run()
		c.waitNoJobs(15 * time.Second)
	}
	return c.stopDaemons()
}

func currentUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return strconv.Itoa(os.Getuid())
}

// waitNoJobs waits until the controller lists no job, so that no job step outlives
// the daemons.
func (c *Cluster) waitNoJobs(timeout time.Duration) {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		cmd := exec.Command("squeue", "-h", "-o", "%i")
		cmd.Env = append(os.Environ(), c.Env())
		out, err := cmd.Output()
		if err != nil || len(bytes.TrimSpace(out)) == 0 {
			return
		}
	}
}

// stopDaemons stops the running daemons in the reverse order of their start.
func (c *Cluster) stopDaemons() error {
	var errs []error
	for i := len(daemons) - 1; i >= 0; i-- {
		d := daemons[i]
		pid, ok := c.running(d)
		if !ok {
			continue
		}
		if err := stop(pid); err != nil {
			errs = append(errs, fmt.Errorf("%s (pid %d): %v", d, pid, err))
		}
		os.Remove(c.pidFile(d))
	}
	return errors.Join(errs...)
}

// waitGone waits until process pid has ended, at most timeout; it reports whether it
// has.
func waitGone(pid int, timeout time.Duration) bool {
	for deadline := time.Now().Add(timeout); ; time.Sleep(50 * time.Millisecond) {
		if !ProcessRunning(pid) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// zombie reports whether process pid has ended but not been reaped (state Z in
// /proc/PID/stat, the field after the command's parenthesised name).
func zombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, ok := bytes.Cut(b[bytes.LastIndexByte(b, ')')+1:], []byte(" "))
	return ok && bytes.HasPrefix(rest, []byte("Z"))
}
