import CEditLine
import CSignals
import Glibc

/// Reads lines from the terminal with editing, history and tab completion, through libedit.
///
/// The only user of libedit (and of the `CEditLine` shim) in the program, so the REPL
/// itself only sees `readLine(prompt:) -> String?`.
///
/// ```swift
/// guard let editor = LineEditor(programName: "dice", historyPath: path,
///                               warn: { print("dice: warning: \($0)") }) else { ... }
/// editor.completer = { word, _ in names.filter { $0.hasPrefix(word) } }
/// while let line = editor.readLine(prompt: "dice> ") {
///     editor.addHistory(line)
///     ...
/// }
/// ```
///
/// Creating an editor installs, for the life of the process, handlers for SIGINT, SIGCONT
/// and SIGWINCH that only set flags (with SA_RESTART, so other I/O never sees EINTR):
/// Ctrl-C never kills the REPL. While a line is being read, Ctrl-C abandons it; at other
/// times it sets `LineEditor.interruptRequested`, which the REPL watches while a statement
/// runs. The flags live in `CSignals` (one copy for the whole program). When the command
/// took the terminal in a process group of its own (`dice_take_terminal`, under `make run`),
/// SIGTSTP is caught too and Ctrl-Z only redraws the line.
final class LineEditor {
    private let editLine: OpaquePointer
    private let libeditHistory: OpaquePointer
    private var historyFile: HistoryFile?
    private var entries: [String] = []
    private let historyLimit: Int
    /// The prompt as a C string for libedit's prompt callback; never null.
    private var promptCString: UnsafeMutablePointer<CChar>
    /// Where the prompt and the line being typed show: stdout, or stderr when only stderr
    /// is a terminal (`dice > rolls.txt`), as bash shows its prompt; results go to stdout.
    private let terminal: UnsafeMutablePointer<FILE>

    /// Tab completion: given the word before the cursor (letters, digits, `_` and `:`,
    /// possibly empty) and the text before that word, the candidates that may replace it.
    /// Candidates not starting with the word are ignored. Nothing is appended after a
    /// unique completion, so a candidate may carry its own suffix (`":load "`, `"smite("`).
    var completer: ((_ word: String, _ before: String) -> [String])?
    /// Whether Tab before the cursor (given the text before it) completes a file name,
    /// with libedit's own file name completion, instead of asking `completer`.
    var completesFileName: ((_ beforeCursor: String) -> Bool)?
    /// Whether the last `readLine` ended with Ctrl-C.
    private(set) var lineWasInterrupted = false

    /// Whether SIGINT (Ctrl-C) arrived since the flag was last reset. `readLine` resets it
    /// when it starts; a long computation may poll it and should reset it when it stops.
    static var interruptRequested: Bool {
        get { dice_interrupt_requested() != 0 }
        set { dice_set_interrupt_requested(newValue ? 1 : 0) }
    }

    /// Sets up libedit on stdin/stdout/stderr (emacs keys, `~/.editrc` honoured) and loads
    /// the history file at `historyPath`, if given. Problems with the history file are
    /// reported once through `warn` (a message without a program-name prefix) and never
    /// fail: history is then kept for this session only. Returns nil if libedit fails.
    init?(programName: String, historyPath: String?, historyLimit: Int = 1000,
          warn: @escaping (String) -> Void) {
        LineEditor.useUTF8Locale()
        guard let libeditHistory = history_init() else { return nil }
        let terminal = isatty(STDOUT_FILENO) == 0 && isatty(STDERR_FILENO) != 0 ? dice_stderr() : dice_stdout()
        guard let terminal, let editLine = el_init(programName, dice_stdin(), terminal, dice_stderr()) else {
            history_end(libeditHistory)
            return nil
        }
        self.editLine = editLine
        self.libeditHistory = libeditHistory
        self.terminal = terminal
        self.historyLimit = max(0, historyLimit)
        self.promptCString = LineEditor.makeCString("")

        var event = HistEvent()
        _ = dice_history_set_size(libeditHistory, &event, Int32(clamping: max(1, historyLimit)))
        _ = dice_history_set_unique(libeditHistory, &event, 1)

        _ = dice_el_set_clientdata(editLine, Unmanaged.passUnretained(self).toOpaque())
        _ = dice_el_set_prompt(editLine) { editLine in
            guard let editLine, let editor = LineEditor.editor(of: editLine) else {
                return dice_empty_prompt()  // libedit crashes on a null prompt
            }
            return editor.promptCString
        }
        _ = dice_el_set_editor(editLine, "emacs")
        _ = dice_el_set_signal(editLine, 1)
        _ = dice_el_set_history(editLine, libeditHistory)
        _ = dice_el_use_interruptible_reader(editLine)
        _ = dice_el_add_function(editLine, "dice-complete", "Complete the word before the cursor") {
            editLine, key in
            guard let editLine, let editor = LineEditor.editor(of: editLine) else {
                return UInt8(CC_ERROR)
            }
            return editor.complete(key)
        }
        _ = dice_el_bind(editLine, "^I", "dice-complete")
        _ = el_source(editLine, nil)

        LineEditor.interruptRequested = false
        _ = dice_install_signal_handlers()

        if let historyPath, self.historyLimit > 0 {
            var file = HistoryFile(path: historyPath, limit: self.historyLimit, warn: warn)
            for line in file.load() { enter(line) }
            historyFile = file
        }
    }

    deinit {
        el_end(editLine)
        history_end(libeditHistory)
        promptCString.deallocate()
    }

    // MARK: - Reading

    /// Reads one line with editing, without its newline. Returns nil at end of input
    /// (Ctrl-D on an empty line), after printing a newline on a terminal. Ctrl-C abandons
    /// the line being typed: prints `^C` and a newline and returns "" so the caller just
    /// prompts again.
    func readLine(prompt: String) -> String? {
        promptCString.deallocate()
        promptCString = LineEditor.makeCString(prompt)
        LineEditor.interruptRequested = false
        lineWasInterrupted = false
        dice_clear_terminal_signals()

        // Raw mode before the prompt shows, so keys typed after it are not echoed twice.
        _ = dice_el_prepare_terminal(editLine, 1)
        var count: Int32 = 0
        guard let line = el_gets(editLine, &count), count > 0 else {
            // Without a terminal to write to libedit does not edit, and its plain reader
            // reports an interrupted read as an empty one (count 0): the flag tells.
            let interrupted = (count < 0 && errno == EINTR) || LineEditor.interruptRequested
            if interrupted {
                LineEditor.interruptRequested = false
                lineWasInterrupted = true
                el_reset(editLine)
                write("^C\n")
                return ""
            }
            if isatty(STDIN_FILENO) != 0 { write("\n") }
            return nil
        }
        var bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(line)
            .assumingMemoryBound(to: UInt8.self), count: Int(count)))
        while let last = bytes.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") {
            bytes.removeLast()
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - History

    /// Lines added so far (loaded from the history file, then this session's), oldest first.
    var history: [String] { entries }

    /// Adds an accepted line to the history (recalled with Up/Down) and appends it to the
    /// history file at once, so a crash or kill loses nothing. Blank lines and a repeat of
    /// the previous line are skipped.
    func addHistory(_ line: String) {
        let line = String(line.map { $0.isNewline ? " " : $0 })
        guard historyLimit > 0, !line.allSatisfy({ $0.isWhitespace }), line != entries.last else {
            return
        }
        enter(line)
        historyFile?.append(line)
    }

    private func enter(_ line: String) {
        var event = HistEvent()
        _ = dice_history_enter(libeditHistory, &event, line)
        entries.append(line)
        if entries.count > historyLimit {
            entries.removeFirst(entries.count - historyLimit)
        }
    }

    // MARK: - Completion

    /// The `^I` editor function: completes the word before the cursor from `completer`.
    private func complete(_ key: Int32) -> UInt8 {
        guard let info = el_line(editLine)?.pointee else { return UInt8(CC_ERROR) }
        let start = UnsafeRawPointer(info.buffer).assumingMemoryBound(to: UInt8.self)
        let beforeCursor = String(decoding: UnsafeBufferPointer(
            start: start, count: info.cursor - info.buffer), as: UTF8.self)
        if completesFileName?(beforeCursor) == true {
            return _el_fn_complete(editLine, key)  // libedit's file name completion
        }
        guard let completer else { return UInt8(CC_ERROR) }
        let word = String(beforeCursor.reversed().prefix(while: LineEditor.isWordCharacter).reversed())
        let before = String(beforeCursor.dropLast(word.count))

        let candidates = Set(completer(word, before).filter { $0.hasPrefix(word) }).sorted()
        guard let first = candidates.first else { return UInt8(CC_REFRESH_BEEP) }
        let common = candidates.dropFirst().reduce(first) { common, candidate in
            String(zip(common, candidate).prefix(while: { $0 == $1 }).map(\.0))
        }
        if common.count > word.count {
            _ = el_insertstr(editLine, String(common.dropFirst(word.count)))
        }
        if candidates.count == 1 { return UInt8(CC_REFRESH) }
        write("\n" + LineEditor.columns(candidates, width: Int(dice_el_columns(editLine))))
        return UInt8(CC_REDISPLAY)
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_"
            || character == ":")
    }

    /// The candidates in columns down then across, like `ls`, each line ending in "\n".
    static func columns(_ items: [String], width: Int) -> String {
        let columnWidth = (items.map { $0.count }.max() ?? 0) + 2
        let perRow = max(1, width / columnWidth)
        let rows = (items.count + perRow - 1) / perRow
        var text = ""
        for row in 0..<rows {
            var line = ""
            for index in stride(from: row, to: items.count, by: rows) {
                let item = items[index]
                line += item + String(repeating: " ", count: columnWidth - item.count)
            }
            while line.last == " " { line.removeLast() }
            text += line + "\n"
        }
        return text
    }

    // MARK: - Helpers

    private static func editor(of editLine: OpaquePointer) -> LineEditor? {
        guard let data = dice_el_get_clientdata(editLine) else { return nil }
        return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
    }

    private func write(_ text: String) {
        fputs(text, terminal)
        fflush(terminal)
    }

    private static func makeCString(_ text: String) -> UnsafeMutablePointer<CChar> {
        let utf8 = Array(text.utf8CString)
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
        pointer.initialize(from: utf8, count: utf8.count)
        return pointer
    }

    /// libedit decodes keys with the C library's multibyte functions: make sure those read
    /// UTF-8, from the user's locale if it is UTF-8, else from C.UTF-8. Only LC_CTYPE changes.
    private static func useUTF8Locale() {
        if setlocale(LC_CTYPE, "") != nil, let codeset = nl_langinfo(nl_item(CODESET)) {
            let name = String(cString: codeset).uppercased()
            if name == "UTF-8" || name == "UTF8" { return }
        }
        _ = setlocale(LC_CTYPE, "C.UTF-8")
    }
}

extension LineEditor: LineReading {
    func takeInterrupt() -> Bool {
        guard LineEditor.interruptRequested else { return false }
        LineEditor.interruptRequested = false
        return true
    }
}
