# tests/nobody.sh - sourced by the *.test scripts that need a user whom file
# permissions stop (a chmod 555 folder). Run as root (as CI does), such a
# script runs those commands as nobody instead of skipping them.
#
# nobody_setup DIR: finds how to run a command as nobody (setpriv, else
# runuser) and checks that it works. DIR (the test's temporary folder) is
# made mode 755; when nobody still cannot reach it (a TMPDIR under /root)
# a folder of its own is made under /tmp. Nobody must be able to run
# $RUNEFRAME: when the build tree is out of its reach (a checkout under
# /root), a copy is made. Last, a chmod 555 folder must stop nobody.
# On success it returns 0 and sets
#   AS_NOBODY          the command prefix ("setpriv ..." or "runuser ...")
#   NOBODY_DIR         DIR, or the folder under /tmp: where to put the
#                      folders nobody writes to and the files it reads
#                      (readable by others)
#   RUNEFRAME_NOBODY   the binary for nobody to run
# else it returns 1 and sets nobody_why to the reason (for the SKIP line).
# The caller removes NOBODY_DIR when it is not DIR (nobody_cleanup does).
# shellcheck shell=sh disable=SC2034 # the variables are the callers'

nobody_setup() {
    nobody_dir=$1
    AS_NOBODY=
    NOBODY_DIR=
    RUNEFRAME_NOBODY=$RUNEFRAME
    nobody_why=
    if [ "$(id -u)" -ne 0 ]; then
        nobody_why="not root: cannot change user"
        return 1
    fi
    if ! nobody_uid=$(id -u nobody 2>/dev/null) || ! nobody_gid=$(id -g nobody 2>/dev/null); then
        nobody_why="no user nobody"
        return 1
    fi
    if command -v setpriv >/dev/null 2>&1 &&
        setpriv --reuid="$nobody_uid" --regid="$nobody_gid" --clear-groups true 2>/dev/null; then
        AS_NOBODY="setpriv --reuid=$nobody_uid --regid=$nobody_gid --clear-groups"
    elif command -v runuser >/dev/null 2>&1 && runuser -u nobody -- true 2>/dev/null; then
        AS_NOBODY="runuser -u nobody --"
    else
        nobody_why="neither setpriv nor runuser can switch to nobody here (util-linux not installed, or a user namespace without nobody)"
        return 1
    fi
    chmod 755 "$nobody_dir" || { nobody_why="cannot chmod $nobody_dir"; return 1; }
    NOBODY_DIR=$nobody_dir
    # shellcheck disable=SC2016 # expanded by the inner sh
    if ! $AS_NOBODY sh -c 'cd "$1"' sh "$NOBODY_DIR" 2>/dev/null; then
        if ! NOBODY_DIR=$(mktemp -d /tmp/runeframe-nobody.XXXXXX) || ! chmod 755 "$NOBODY_DIR"; then
            nobody_why="nobody cannot reach $nobody_dir, and no folder can be made under /tmp"
            return 1
        fi
        nobody_dir=$NOBODY_DIR
        if ! $AS_NOBODY sh -c 'cd "$1"' sh "$NOBODY_DIR" 2>/dev/null; then
            nobody_why="nobody cannot reach $nobody_dir, nor a folder under /tmp"
            return 1
        fi
    fi
    # shellcheck disable=SC2016 # expanded by the inner sh
    if ! $AS_NOBODY sh -c '[ -x "$1" ] && [ -r "$1" ]' sh "$RUNEFRAME" 2>/dev/null; then
        if ! { mkdir -p "$nobody_dir/nobody-bin" && chmod 755 "$nobody_dir/nobody-bin" &&
            cp "$RUNEFRAME" "$nobody_dir/nobody-bin/runeframe" &&
            chmod 755 "$nobody_dir/nobody-bin/runeframe"; }; then
            nobody_why="cannot copy $RUNEFRAME into $nobody_dir"
            return 1
        fi
        RUNEFRAME_NOBODY=$nobody_dir/nobody-bin/runeframe
    fi
    if ! $AS_NOBODY "$RUNEFRAME_NOBODY" --version >/dev/null 2>&1; then
        nobody_why="nobody cannot run $RUNEFRAME_NOBODY"
        return 1
    fi
    if ! mkdir "$nobody_dir/nobody-probe" || ! chmod 555 "$nobody_dir/nobody-probe"; then
        nobody_why="cannot make a folder in $nobody_dir"
        return 1
    fi
    # shellcheck disable=SC2016
    if $AS_NOBODY sh -c ': >"$1/x"' sh "$nobody_dir/nobody-probe" 2>/dev/null; then
        nobody_why="a chmod 555 folder does not stop nobody here"
        rm -f "$nobody_dir/nobody-probe/x"
        rmdir "$nobody_dir/nobody-probe"
        return 1
    fi
    rmdir "$nobody_dir/nobody-probe"
    return 0
}

# nobody_cleanup DIR: removes NOBODY_DIR when nobody_setup DIR made it.
nobody_cleanup() {
    case $NOBODY_DIR in
    "" | "$1") ;;
    *) chmod -R u+w "$NOBODY_DIR" 2>/dev/null; rm -rf "$NOBODY_DIR" ;;
    esac
}
