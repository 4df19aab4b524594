#!/bin/bash
# Runs k8s-indexed-job.yaml, waits for it, then k8s-merge-job.yaml, and prints the merged summary.
#   examples/scale-out/k8s-run.sh IMAGE [TIMEOUT_S]   (how long the shards may take, default 86400 s)
# Exit code: the merge pod's (0 every case passed or was skipped, 1 a case failed, 3 a shard left
# no results file).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 IMAGE [TIMEOUT]" >&2; exit 2; }
image=$1 timeout=${2:-86400}
here=$(dirname "$(realpath "$0")")
kubectl delete job nnbridge-conformance nnbridge-conformance-merge --ignore-not-found
sed "s|IMAGE|$image|" "$here/k8s-indexed-job.yaml" | kubectl apply -f -
# Until the Job is Complete (every index succeeded) or Failed (an index ran out of retries; merge
# then names the shard without a results file).
finished() {
  kubectl get job "$1" -o jsonpath='{.status.conditions[?(@.status=="True")].type}' | grep -Eq 'Complete|Failed'
}
end=$(($(date +%s) + timeout))
until finished nnbridge-conformance; do
  [ "$(date +%s)" -lt "$end" ] || { echo "$0: the shards did not finish within $timeout s" >&2; exit 3; }
  sleep 30
done
sed "s|IMAGE|$image|" "$here/k8s-merge-job.yaml" | kubectl apply -f -
until finished nnbridge-conformance-merge; do sleep 5; done
kubectl logs job/nnbridge-conformance-merge
pod=$(kubectl get pods -l job-name=nnbridge-conformance-merge -o jsonpath='{.items[0].metadata.name}')
exit "$(kubectl get pod "$pod" -o jsonpath='{.status.containerStatuses[0].state.terminated.exitCode}')"
