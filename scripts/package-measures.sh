# Sourced by the scripts that build a user's package in a scratch directory
# (dependent-check.sh, proxy-sdk-check.sh, build-cost.sh): what such a build cost and resolved.

# Runs "$@" with its output in $LOG (shown on failure); prints the CPU seconds (user + sys) it
# took, its children included.
cpu_seconds() {
    local me=$BASHPID before after
    before=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$me/stat")
    "$@" >"$LOG" 2>&1 || { cat "$LOG" >&2; return 1; }
    after=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$me/stat")
    echo $(((after - before) / $(getconf CLK_TCK)))
}

# The identities a Package.resolved pins, one a line (none if there is no file).
resolved_pins() {
    [ -f "$1" ] || return 0
    sed -n 's/.*"identity" *: *"\([^"]*\)".*/\1/p' "$1"
}
