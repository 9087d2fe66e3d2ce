#!/bin/sh
# One shard of `symex explore` per Slurm array task (docs/shards.md):
#   sbatch --array=0-$((N - 1)) docs/shards-slurm.sh PROGRAM N [OPTION…]
# writes shards/NAME-I.json for `symex merge shards/NAME-*.json` (make the
# folder shards/ first: Slurm opens each task's log there).
#SBATCH --job-name=symex-shard
#SBATCH --cpus-per-task=1
#SBATCH --output=shards/%x-%a.log
set -eu
program=$1
count=$2
shift 2
name=$(basename "$program" .sx)
symex explore "$program" --format json --shard "$SLURM_ARRAY_TASK_ID/$count" "$@" \
    > "shards/$name-$SLURM_ARRAY_TASK_ID.json"
