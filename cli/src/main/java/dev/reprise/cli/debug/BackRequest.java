package dev.reprise.cli.debug;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * What {@code reprise back} asks the proxy, on the debugger's own port: a connection whose first
 * bytes are not JDWP's handshake but one line, {@code reprise back previous} (the previous hit of
 * the breakpoint the debugger stands at) or {@code reprise back to THREAD:EVENT}. The proxy
 * answers {@link #WORKING} at once, so the command knows it reached a proxy, then one line when
 * done: {@code ok WHAT} or {@code error STATUS WHY}, {@code STATUS} the command's exit status.
 *
 * @param to the moment as {@code --stop-at} takes it, or null for the previous hit
 */
public record BackRequest(String to) {
    static final String PREFIX = "reprise back ";
    public static final String WORKING = "going back";
    private static final int MAX_LINE = 1000;

    /** The request's line, newline included; longer than JDWP's handshake, as the proxy reads that much first. */
    public String line() {
        return PREFIX + (to == null ? "previous" : "to " + to) + "\n";
    }

    /** The request that {@code line} (without its newline) asks for, or null if it is none. */
    static BackRequest parse(String line) {
        if (!line.startsWith(PREFIX)) {
            return null;
        }
        String what = line.substring(PREFIX.length());
        if (what.equals("previous")) {
            return new BackRequest(null);
        }
        return what.startsWith("to ") ? new BackRequest(what.substring(3)) : null;
    }

    /** One line of {@code in}, without its newline; null at the end of the stream or past a sane length. */
    public static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0 || line.size() > MAX_LINE) {
                return null;
            }
            line.write(b);
        }
        return line.toString(StandardCharsets.UTF_8);
    }
}
