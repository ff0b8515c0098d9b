# bash completion for dice(1): its options, and .dice scripts for the file argument.
# Installed as $(PREFIX)/share/bash-completion/completions/dice (`make install`).

_dice() {
    local cur prev
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}

    case $prev in
        --show-system)
            # The built-in game systems (dice --show-system with another name lists them).
            COMPREPLY=($(compgen -W 'dnd5e pf2e pbta blades shadowrun wod coc savage fate ironsworn yearzero genesys' -- "$cur"))
            return 0
            ;;
        -e|--eval|--seed|-n|--max-dice|--max-output|--stats-seconds)
            # A statement or a number: nothing to complete.
            return 0
            ;;
        --svg)
            # The chart's file: any file name.
            local IFS=$'\n'
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -- "$cur"))
            return 0
            ;;
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W '-e --eval --seed -n --json -t --total --stats --max-dice --max-output
            --stats-seconds --csv --svg --show-system --markdown -q --quiet --color --no-color -h --help --version --' -- "$cur"))
        return 0
    fi

    # Scripts: .dice files and directories to reach them.
    local IFS=$'\n'
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -X '!*.dice' -- "$cur") $(compgen -d -- "$cur"))
} && complete -F _dice dice
