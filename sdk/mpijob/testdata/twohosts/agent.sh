#!/bin/sh
# agent.sh: an ssh stand-in for Open MPI's rsh launcher (--mca plm_rsh_agent)
# that "logs in" to a host simulated by a network namespace.
#
#   agent.sh MAPFILE [ssh-options] HOST COMMAND...
#
# MAPFILE has one line per host: "ADDRESS NETNS HOSTNAME". The command runs
# as `sh -c COMMAND` inside NETNS, in a UTS namespace of its own whose host
# name is HOSTNAME, so that MPI_Get_processor_name differs per host.
set -eu
map=$1
shift
# Skip ssh options: Open MPI may pass some (-x, -n, -o opt, -p port).
while [ $# -gt 0 ]; do
	case $1 in
	-o | -p | -l | -i | -F) shift 2 ;;
	-*) shift ;;
	*) break ;;
	esac
done
if [ $# -lt 2 ]; then
	echo "agent.sh: usage: agent.sh MAPFILE [ssh-options] HOST COMMAND..." >&2
	exit 255
fi
host=$1
shift
line=$(awk -v h="$host" '$1 == h || $3 == h { print; exit }' "$map")
if [ -z "$line" ]; then
	echo "agent.sh: host $host is not in $map" >&2
	exit 255
fi
ns=$(echo "$line" | awk '{ print $2 }')
name=$(echo "$line" | awk '{ print $3 }')
# Like ssh, hand the remote shell the command words joined by spaces.
exec ip netns exec "$ns" unshare --uts sh -c 'hostname "$1"; shift; exec sh -c "$*"' agent "$name" "$@"
