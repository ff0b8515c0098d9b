# fish completion for dice(1): its options, and .dice scripts for the file argument.
# Installed as $(PREFIX)/share/fish/vendor_completions.d/dice.fish (`make install`).

complete -c dice -f
complete -c dice -s e -l eval -x -d 'Run a statement (the next word is always a statement)'
complete -c dice -l seed -x -d 'Deterministic rolls: same seed and input, same output'
complete -c dice -s n -x -d 'Run each -e expression N times'
complete -c dice -l json -d 'JSON Lines output, one object per result'
complete -c dice -s t -l total -d "Print only each result's value"
complete -c dice -l stats -d 'With -e: print the distribution of each expression'
complete -c dice -l max-dice -x -d 'The per-statement dice limit (default 10,000,000)'
complete -c dice -l max-output -x -d 'The bytes one statement may print (default 16 MiB)'
complete -c dice -l stats-seconds -x -d 'The time bound of one stats (default 1)'
complete -c dice -l csv -d 'Print stats as CSV: a header row, then a row an outcome'
complete -c dice -l svg -r -F -d 'Also write each stats result as an SVG chart'
complete -c dice -l show-system -x -a 'dnd5e pf2e pbta blades shadowrun wod coc savage fate ironsworn yearzero genesys' -d 'Print the .dice source of a built-in game system'
complete -c dice -l markdown -d 'Breakdowns for chat: struck dropped dice, bold highest and lowest faces'
complete -c dice -s q -l quiet -d 'Print rolls and stats only, not assignments and definitions'
complete -c dice -l color -d 'Force colour on'
complete -c dice -l no-color -d 'Force colour off'
complete -c dice -s h -l help -d 'Show the help'
complete -c dice -l version -d 'Show the version'
# The script argument: .dice files, and directories to reach them.
function __dice_complete_scripts
    __fish_complete_suffix .dice | string match -r --entire -- '\.dice$|/$'
end
complete -c dice -n 'not string match -q -- "-*" (commandline -ct); and not __fish_prev_arg_in -e --eval --seed -n --max-dice --max-output --stats-seconds --svg --show-system' \
    -a '(__dice_complete_scripts)'
