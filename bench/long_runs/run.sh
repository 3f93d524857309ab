#!/usr/bin/env bash
# Long runs of snowsim (issue 25): for each scene and each integrator, simulates the
# scene's first FRAMES frames and prints, per run, minutes per frame (wall), steps per
# frame, CPU minutes per frame (user + system) and peak RSS, and for the auto
# integrator the frames where it switched.
#
#   bench/long_runs/run.sh [scene.toml ...]        (from the repository's root)
#
# Without scenes it runs the 3e5-particle snowball, the 1e6 one and the production
# examples (kick, plough, wedge_presets), preparing the kick's and the plough's
# colliders as the README says when they are missing. Settings, from the environment:
#
#   FRAMES=24                      frames per run (FRAMES=3 for a quick look)
#   INTEGRATORS="explicit semi-implicit auto"
#   THREADS=2                      snowsim -threads
#   WORK=/tmp/long_runs            where the frames and logs go (each run's folder is
#                                  replaced; the frames are deleted after the run
#                                  unless KEEP=1)
#   NICE=10                        the runs' niceness
#   BIN=bin                        where the tools are built
#   SLEEP=0                        1: resting snow sleeps (solver.sleep = true); the
#                                  integrator column then reads e.g. explicit+sleep;
#                                  "0 1": each integrator awake, then asleep
#
# With KEEP=1 and more than one integrator it also prints how far each run's final shape
# is from the first integrator's, and writes them side by side to WORK/SCENE-compare.png.
#
# e.g. FRAMES=3 INTEGRATORS="explicit auto" bench/long_runs/run.sh bench/long_runs/snowball_3e5.toml
# Needs GNU time (/usr/bin/time -v). CI does not run it: the defaults take hours.
set -euo pipefail
frames=${FRAMES:-24}
integrators=${INTEGRATORS:-explicit semi-implicit auto}
threads=${THREADS:-2}
work=${WORK:-/tmp/long_runs}
niceness=${NICE:-10}
bin=${BIN:-bin}
sleeps=${SLEEP:-0}
here=$(cd "$(dirname "$0")" && pwd)

mkdir -p "$bin" "$work"
go build -o "$bin/" ./cmd/snowsim ./cmd/voxelize ./cmd/export

scenes=("$@")
if [ ${#scenes[@]} -eq 0 ]; then
	scenes=("$here/snowball_3e5.toml" "$here/snowball_1e6.toml" examples/kick.toml examples/plough.toml examples/wedge_presets.toml)
fi

# prepare makes the collider files that a production example reads.
prepare() {
	case "$(basename "$1")" in
	kick.toml)
		[ -f examples/kick-demo/kick.0001.vdb ] ||
			"$bin/voxelize" -voxel 0.01 -o 'examples/kick-demo/kick.####.vdb' examples/kick.gltf ;;
	plough.toml)
		[ -f examples/plough-demo/plough.0001.vdb ] || {
			go run ./examples/plough -o examples/plough-demo
			"$bin/voxelize" -voxel 0.01 -o 'examples/plough-demo/plough.####.vdb' examples/plough-demo/plough.0001.obj
		} ;;
	esac
}

# compare prints, with KEEP=1 and more than one run of a scene, how far each run's final
# shape is from the first run's (export -to compare: the distance between the centroids,
# the share of occupied cells in common, the median and largest differences of the column heights,
# all in cells of h; the numbers in WORK/SCENE-differences.csv) and writes the runs side
# by side to WORK/SCENE-compare.png. A failed comparison is reported and the runs go on.
compare() {
	if [ "${KEEP:-0}" = 1 ] && [ ${#kept[@]} -gt 1 ]; then
		local inputs=() run last csv="$work/$1-differences.csv" log="$work/$1-compare.log"
		for run in "${kept[@]}"; do
			last=$(ls "$run" | grep -v '^spray' | grep '\.prt$' | sort | tail -1 || true)
			if [ -z "$last" ]; then
				echo "  $1: no particle frame in $run to compare" >&2
				kept=() labels=()
				return
			fi
			inputs+=("$run/$last")
		done
		last=$(sed -E 's/.*\.0*([0-9]+)\.prt$/\1/' <<<"${inputs[0]}")
		if nice -n "$niceness" "$bin/export" -to compare -frames "$last" -labels "$(IFS=,; echo "${labels[*]}")" \
			-differences "$csv" "$work/$1-compare.png" "${inputs[@]}" 2>"$log"; then
			awk -F, 'function f(v, scale, digits) { return v == "" ? "n/a" : sprintf("%." digits "f", scale * v) }
				NR > 1 { printf "  frame %d: %s against %s: centroids %s h apart, %s%% of the cells shared, heights %s h apart (median), %s h (largest)\n",
					$1, $3, $4, f($5, 1, 2), f($6, 100, 1), f($7, 1, 2), f($10, 1, 2) }' "$csv"
		else
			echo "  $1: the comparison failed; see $log" >&2
		fi
	fi
	kept=() labels=()
}
kept=() labels=()

printf '%-16s %-13s %6s %9s %9s %10s %9s %9s  %s\n' scene integrator frames particles 'min/frame' 'steps/frm' 'CPU-min/f' 'peak RSS' 'auto: frame integrator'
for scene in "${scenes[@]}"; do
	prepare "$scene"
	name=$(basename "$scene" .toml)
	for run in $(for i in $integrators; do for s in $sleeps; do echo "$i:$s"; done; done); do
		integrator=${run%:*} sleep=${run#*:}
		label=$integrator
		[ "$sleep" = 1 ] && label="$integrator+sleep"
		out="$work/$name-$label"
		rm -rf "$out"
		mkdir -p "$out"
		log="$work/$name-$label.log"
		# -o replaces the scene's output folder; no checkpoints, which would add their I/O
		if ! nice -n "$niceness" /usr/bin/time -v "$bin/snowsim" -frames "$frames" -threads "$threads" -checkpoint 0 \
			-set "solver.integrator=\"$integrator\"" -set "solver.sleep=$([ "$sleep" = 1 ] && echo true || echo false)" \
			-o "$out" "$scene" >/dev/null 2>"$log"; then
			echo "$name $label: snowsim failed; see $log" >&2
			continue
		fi
		# snowsim's summary: "snowsim: N frames in W s: X s/frame, S steps/frame, R particle-steps/s"
		summary=$(grep -a 'frames in .* s/frame' "$log" | tail -1)
		particles=$(grep -ao 'snowsim: [0-9]* particles' "$log" | head -1 | awk '{print $2}')
		wall=$(sed -E 's/.* ([0-9.]+) s\/frame.*/\1/' <<<"$summary")
		steps=$(sed -E 's/.* ([0-9.]+) steps\/frame.*/\1/' <<<"$summary")
		user=$(awk -F': ' '/User time/ {print $2}' "$log")
		sys=$(awk -F': ' '/System time/ {print $2}' "$log")
		rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
		switches=$(grep -ao 'frame [0-9]*: [a-z-]* (explicit would take' "$log" | sed -E 's/frame ([0-9]+): ([a-z-]+).*/\1:\2/' | paste -sd' ' - || true)
		awk -v n="$name" -v i="$label" -v f="$frames" -v p="$particles" -v w="$wall" -v s="$steps" \
			-v u="$user" -v y="$sys" -v r="$rss" -v sw="$switches" 'BEGIN {
			printf "%-16s %-13s %6d %9d %9.3g %10.0f %9.3g %6.0f MiB  %s\n", n, i, f, p, w / 60, s, (u + y) / 60 / f, r / 1024, sw
		}'
		[ "${KEEP:-0}" = 1 ] || rm -rf "$out"
		kept+=("$out") labels+=("$label")
	done
	compare "$name"
done
