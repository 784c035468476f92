package dev.reprise.agent.ops.files;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import dev.reprise.agent.runtime.events.Ev;

/**
 * The fields of a {@code sun.nio.fs.UnixFileAttributes} that a stat call fills (mode, size,
 * times, inode, ...): logged after a live call, set from the log on replay. The primitive fields
 * are found once by reflection, so the coding follows the running JDK version's layout; the
 * lazily computed owner, group and key are left to the JDK.
 */
final class UnixAttrs {
    private static final Comparator<Field> BY_NAME = new Comparator<>() {
        @Override
        public int compare(Field a, Field b) {
            return a.getName().compareTo(b.getName());
        }
    };

    private static final VarHandle[] FIELDS = fields();

    private UnixAttrs() {
    }

    private static VarHandle[] fields() {
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(Unix.ATTRS, MethodHandles.lookup());
            List<VarHandle> handles = new ArrayList<>();
            Field[] declared = Unix.ATTRS.getDeclaredFields();
            Arrays.sort(declared, BY_NAME);
            for (Field f : declared) {
                if (!Modifier.isStatic(f.getModifiers()) && f.getType().isPrimitive()) {
                    handles.add(lookup.unreflectVarHandle(f));
                }
            }
            return handles.toArray(new VarHandle[0]);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot reach the fields of " + Unix.ATTRS.getName(), e);
        }
    }

    /** Codes the attributes a successful stat filled into {@code attrs}. */
    static void code(Ev ev, Object attrs) {
        boolean live = ev.live();
        for (int k = 0; k < FIELDS.length; k++) {
            VarHandle f = FIELDS[k];
            Class<?> t = f.varType();
            if (t == long.class) {
                long v = ev.j(live ? (long) f.get(attrs) : 0);
                if (!live) {
                    f.set(attrs, v);
                }
            } else if (t == int.class) {
                int v = ev.i(live ? (int) f.get(attrs) : 0);
                if (!live) {
                    f.set(attrs, v);
                }
            } else {
                boolean v = ev.z(live && (boolean) f.get(attrs));
                if (!live) {
                    f.set(attrs, v);
                }
            }
        }
    }
}
