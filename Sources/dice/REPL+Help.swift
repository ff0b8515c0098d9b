extension REPL {
    /// What `:help` prints: the notation at a glance, the statements and the commands, in
    /// lines of at most 80 columns (a line of 107 broke mid-word in an 80-column terminal).
    static let help = """
        Roll by typing an expression; results show every die.
          4d6kh3 + 2        keep the 3 highest of 4d6, add 2
          2d20kh1 + 5       advantage        {1d20+5, 1d20+5}kh1   the same, as a group
          8d6! [fire]       exploding, labelled     6d10cs>=8df=1   successes minus 1s
          (2d8 + 3) [slashing]   a label names the term before it: here the sum
          1d20ro1  2d6r<3   reroll once / until above 2   3d6mi2  4d6ma5   clamp faces
          4dF  d%  d{1,1,2,3}   Fate, percentile, custom faces  (1d4)d6  computed count
          repeat(6, 4d6kh3) six ability scores   1d20 + 5 >= 15   a hit test (1 or 0)
          abs floor ceil round min max    + - * / // % ^    # comment
          if 1d20 >= 15 then 2d6 else 0      only the branch taken rolls
          let r = 1d20 in if r == 20 then 2d8 else 1d8   one roll, used twice
        Words, tables and tallies:
          match 2d6 + 1 { 6-: "miss", 7-9: "weak hit", 10+: "strong hit" }   a table
          d{"orc", "troll"}   a die of texts     3d8u   unique dice
          (hits: 3, glitch: 1)   a tally; t.hits a field
          let p = 12d6 in count(p, >=5)   count a bound pool's dice
          r == 1 and w == 1   or   not   logic
          e given c           e on the condition that c holds
        Statements:
          str = 4d6kh3              a variable (rolled once)
          hp -= 1d8   hp += 5       change a variable (also *=)
          def atk = 1d20 + str      a macro (rolled at each use)
          def smite(n) = (n + 1)d8  a macro with parameters: smite(2)
          def atk(bonus = 0) = 1d20 + 5 + bonus   a default parameter: atk, atk(2)
          use pbta                  a game system's macros (use alone lists systems)
          stats 2d20kh1 + 5 >= 15   the exact odds
          1d20; 1d20                two statements on one line
          stats 4d6kh3, 3d6         two distributions side by side
          stats 1d20+5 >= ac for ac in 10..20   the odds for each AC
        Commands:
          :vars  :defs          list variables / macros (a system's with descriptions)
          :del NAME             forget a variable or macro
          :load FILE            run a .dice script here
          :save FILE            save variables and macros as a script
                                (:save ~/.dicerc: they are loaded at each start)
          :svg FILE             write the last stats as an SVG chart (a sweep: lines)
          :seed N               make the following rolls repeatable
          :max-dice N           the dice limit of one statement (default 10,000,000)
          :max-output N         the bytes one statement may print (default 16 MiB)
          :stats-seconds S      the time bound of one stats (default 1)
          :log [N]              the last N results (default 20), newest first,
                                kept across sessions
          :history [N]          the last N lines typed
          :quit (or Ctrl-D)     leave
        A line with an open ( { or [ goes on under ...> until it closes (Ctrl-D there
        drops it, and a :command there drops it and runs the command).
        Keys: Up/Down recall lines, Tab completes names, system names after use and
        file names after :load, :save and :svg, Ctrl-C abandons the line being typed
        or a statement that runs.
        """
}
