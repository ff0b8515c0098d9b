import Testing

/// A new user's habits through the command (issue 24): notes on stderr, `"replaced"` and
/// `"notes"` in JSON, updates of a variable, `--total` means, other rollers' spellings.
@Suite struct HabitCLITests {
    @Test func aPoolComparedWithNoSpaceRollsAndNotes() throws {
        let result = try DiceProcess.run(["--seed", "1", "-e", "10d10>=8"])
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix(" >= 8 = 1\n"))
        #expect(result.stderr
                == "<-e>:1:1: note: this compares the total of the dice; to count the dice that match, write 10d10cs>=8\n")
    }

    @Test func replacingAVariableIsNotedAndInJSON() throws {
        let text = try DiceProcess.run(["-e", "str = 18", "-e", "def str = 1d20"])
        #expect(text.stdout == "str = 18\ndef str = 1d20\n")
        #expect(text.stderr == "<-e>:2:1: note: 'str' was a variable: it is now a macro\n")
        let json = try DiceProcess.run(["--json", "-e", "def atk = 1d20", "-e", "atk = 3"])
        #expect(json.stdout.split(separator: "\n").last
                == #"{"input":"atk = 3","name":"atk","value":3,"text":"3","rolls":[],"replaced":"macro","notes":["'atk' was a macro: it is now a variable"]}"#)
        #expect(json.stderr == "")
    }

    @Test func updatesPrintTheNewValue() throws {
        let result = try DiceProcess.run(["--seed", "3", "-e", "hp = 30; hp -= 1d8; hp *= 2"])
        #expect(result.stdout == "hp = 30\nhp = hp (30) - 1d8 (6) = 24\nhp = hp (24) * 2 = 48\n")
        let unknown = try DiceProcess.run(["-e", "hp -= 5"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("<-e>:1:1: error: 'hp' has no value yet, so it cannot be changed; did you mean 'hp = -5'?\n"))
    }

    @Test func totalPrintsAMeanLikeANumber() throws {
        let result = try DiceProcess.run(["-t", "-e", "stats 1d6", "-e", "stats 2d6", "-e", "stats 1d6xo"])
        #expect(result.stdout == "3.5\n7\n4.0833\n")
    }

    @Test func spellingsEchoAsTyped() throws {
        let result = try DiceProcess.run(["--seed", "5", "-e", "1D20", "-e", "6d10!cs>=8df=1", "-e", "4df", "-e", "0d6"])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("1D20 ("))
        #expect(lines[1].hasPrefix("6d10!cs>=8df=1 ("))
        #expect(lines[2].hasPrefix("4df (["))
        #expect(lines[3] == "0d6 = 0")
    }
}
