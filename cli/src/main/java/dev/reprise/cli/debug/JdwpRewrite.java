package dev.reprise.cli.debug;

import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Copies a packet's data item by item as its {@link JdwpLayouts layout} says, each identifier
 * passed through an {@link IdMap} on the way. With the identity map it only reads: the proxy uses
 * that to find the events of a composite. Identifiers are 8 bytes, as the proxy checks before it
 * translates at all ({@link JdwpIds}).
 */
final class JdwpRewrite {
    /** Translates identifiers one way; a stale one throws. */
    interface IdMap {
        long object(long id) throws JdwpIds.Stale;

        long thread(long id) throws JdwpIds.Stale;

        long type(long id) throws JdwpIds.Stale;

        long method(long id) throws JdwpIds.Stale;

        long field(long id) throws JdwpIds.Stale;

        long frame(long id) throws JdwpIds.Stale;

        int request(int id);

        /** The tag of the field's values (its signature's first letter), the field as given. */
        byte fieldTag(long field) throws JdwpIds.Stale;

        /** The tag of the array's elements, the array as given. */
        byte arrayTag(long array) throws JdwpIds.Stale;
    }

    /** Leaves every identifier as it is. */
    static final IdMap SAME = new IdMap() {
        public long object(long id) {
            return id;
        }

        public long thread(long id) {
            return id;
        }

        public long type(long id) {
            return id;
        }

        public long method(long id) {
            return id;
        }

        public long field(long id) {
            return id;
        }

        public long frame(long id) {
            return id;
        }

        public int request(int id) {
            return id;
        }

        public byte fieldTag(long field) {
            throw new IllegalStateException("reading only");
        }

        public byte arrayTag(long array) {
            throw new IllegalStateException("reading only");
        }
    };

    /** One event of a composite, as written: its kind, request, thread, and for ClassPrepare its type and signature. */
    record Event(int kind, int request, long thread, long type, String signature, int start, int end) {
    }

    /** The data does not follow its layout, or holds a kind the table does not know. */
    static final class Unreadable extends Exception {
        Unreadable(String why) {
            super(why);
        }
    }

    private final ByteBuffer in;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final IdMap map;
    private final List<Event> events = new ArrayList<>();
    private long lastField;
    private long lastObject;
    private long lastThread;
    private long lastType;
    private String lastString;

    private JdwpRewrite(byte[] data, IdMap map) {
        this.in = ByteBuffer.wrap(data);
        this.map = map;
    }

    /** {@code data} with its identifiers translated by {@code map}. */
    static byte[] rewrite(byte[] data, String layout, IdMap map) throws JdwpIds.Stale, Unreadable {
        JdwpRewrite r = new JdwpRewrite(data, map);
        r.run(layout);
        return r.out.toByteArray();
    }

    /** The events of Event.Composite's data, unchanged. */
    static List<Event> events(byte[] composite) throws Unreadable {
        JdwpRewrite r = new JdwpRewrite(composite, SAME);
        try {
            r.run("bE");
        } catch (JdwpIds.Stale e) {
            throw new IllegalStateException(e); // the identity map finds nothing stale
        }
        return r.events;
    }

    private void run(String layout) throws JdwpIds.Stale, Unreadable {
        try {
            walk(layout);
        } catch (BufferUnderflowException e) {
            throw new Unreadable("data shorter than its layout " + layout);
        }
        if (in.hasRemaining()) {
            throw new Unreadable("data longer than its layout " + layout);
        }
    }

    private void walk(String layout) throws JdwpIds.Stale, Unreadable {
        for (int i = 0; i < layout.length(); i++) {
            char c = layout.charAt(i);
            if (c != '*') {
                item(c);
                continue;
            }
            String unit;
            if (layout.charAt(i + 1) == '(') {
                int close = layout.indexOf(')', i);
                unit = layout.substring(i + 2, close);
                i = close;
            } else {
                unit = layout.substring(i + 1, i + 2);
                i++;
            }
            for (int n = copyInt(); n > 0; n--) {
                walk(unit);
            }
        }
    }

    private void item(char c) throws JdwpIds.Stale, Unreadable {
        switch (c) {
            case 'b' -> copy(1);
            case 'i' -> copy(4);
            case 'l' -> copy(8);
            case 's' -> {
                int n = copyInt();
                byte[] utf8 = new byte[n];
                in.get(utf8);
                out.writeBytes(utf8);
                lastString = new String(utf8, java.nio.charset.StandardCharsets.UTF_8);
            }
            case 'o' -> {
                lastObject = in.getLong();
                id(map.object(lastObject));
            }
            case 'T' -> {
                lastThread = map.thread(in.getLong());
                id(lastThread);
            }
            case 't' -> {
                lastType = map.type(in.getLong());
                id(lastType);
            }
            case 'm' -> id(map.method(in.getLong()));
            case 'f' -> {
                lastField = in.getLong();
                id(map.field(lastField));
            }
            case 'F' -> id(map.frame(in.getLong()));
            case 'r' -> u4(map.request(in.getInt()));
            case 'L' -> walk("btml");
            case 'v' -> value(copyTag());
            case 'O' -> object(copyTag());
            case 'U' -> value(map.fieldTag(lastField));
            case 'W' -> {
                byte tag = map.arrayTag(lastObject);
                for (int n = copyInt(); n > 0; n--) {
                    value(tag);
                }
            }
            case 'A' -> {
                byte tag = copyTag();
                int n = copyInt();
                boolean primitive = size(tag) >= 0;
                for (; n > 0; n--) {
                    if (primitive) {
                        value(tag);
                    } else {
                        object(copyTag());
                    }
                }
            }
            case 'M' -> {
                for (int n = copyInt(); n > 0; n--) {
                    int kind = copyTag();
                    String layout = JdwpLayouts.modifier(kind);
                    if (layout == null) {
                        throw new Unreadable("event request modifier " + kind);
                    }
                    walk(layout);
                }
            }
            case 'E' -> {
                for (int n = copyInt(); n > 0; n--) {
                    int start = out.size();
                    int kind = copyTag();
                    int request = map.request(in.getInt());
                    u4(request);
                    String layout = JdwpLayouts.event(kind);
                    if (layout == null) {
                        throw new Unreadable("event kind " + kind);
                    }
                    lastThread = 0;
                    lastType = 0;
                    lastString = null;
                    walk(layout);
                    events.add(new Event(kind, request, lastThread, lastType, lastString, start, out.size()));
                }
            }
            default -> throw new IllegalStateException("layout letter " + c);
        }
    }

    /** A value of the tag's type; objects by their tag (a thread's is a thread). */
    private void value(byte tag) throws JdwpIds.Stale {
        int size = size(tag);
        if (size >= 0) {
            copy(size);
        } else {
            object(tag);
        }
    }

    private void object(byte tag) throws JdwpIds.Stale {
        long id = in.getLong();
        id(tag == 't' ? map.thread(id) : map.object(id));
    }

    /** The size of a primitive tag's value, or -1 for an object's. */
    private static int size(byte tag) {
        return switch (tag) {
            case 'V' -> 0;
            case 'B', 'Z' -> 1;
            case 'C', 'S' -> 2;
            case 'I', 'F' -> 4;
            case 'J', 'D' -> 8;
            default -> -1;
        };
    }

    private byte copyTag() {
        byte b = in.get();
        out.write(b);
        return b;
    }

    private int copyInt() {
        int v = in.getInt();
        u4(v);
        return v;
    }

    private void copy(int n) {
        for (int i = 0; i < n; i++) {
            out.write(in.get());
        }
    }

    private void u4(int v) {
        for (int shift = 24; shift >= 0; shift -= 8) {
            out.write(v >>> shift);
        }
    }

    private void id(long v) {
        for (int shift = 56; shift >= 0; shift -= 8) {
            out.write((int) (v >>> shift));
        }
    }
}
