package io.lanemq.configtool;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One in-process run of the tool: exit code, stdout, stderr. */
record ToolRun(int exitCode, String out, String err) {
    static ToolRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = ConfigTool.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new ToolRun(exitCode, out.toString(), err.toString());
    }
}
