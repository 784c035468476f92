package dev.reprise.agent.runtime.events;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/** 32-bit digests of an operation's arguments, checked on replay. */
public final class Digest {
    private Digest() {
    }

    public static int of(String s) {
        if (s == null) {
            return 0;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return of(b, 0, b.length);
    }

    public static int of(byte[] b, int off, int len) {
        CRC32C crc = new CRC32C();
        crc.update(b, off, len);
        return (int) crc.getValue();
    }
}
