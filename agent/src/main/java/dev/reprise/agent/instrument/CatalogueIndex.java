package dev.reprise.agent.instrument;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.objectweb.asm.Type;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Constructed;
import dev.reprise.agent.ops.Families;
import dev.reprise.agent.ops.Prologue;

/**
 * The hooks the annotations of the hook classes declare, as a text resource of the agent jar
 * ({@value #RESOURCE}). The build writes it ({@link #main}, by reflection); every recorded and
 * replayed JVM reads it. Reading the annotations by reflection at start-up took 20-30 ms of
 * each run and loaded the JDK's annotation, proxy and generic-signature classes into the program.
 *
 * <p>One hook a line, fields separated by tabs: {@code P owner method desc optional kind hook},
 * {@code S kind owner method desc programOnly inherited alsoIn hook} ({@code alsoIn} comma-separated, or
 * {@code -}; an entry ending in {@code /} is a package, in which this hook alone applies) and {@code C owner desc hook}, where {@code hook} is {@code hookOwner hookName hookDesc}.
 */
public record CatalogueIndex(List<Catalogue.PrologueHook> prologues, List<Catalogue.SiteHook> sites,
                             List<Catalogue.ConstructedHook> constructed, Set<String> siteClasses) {
    public static final String RESOURCE = "dev/reprise/agent/instrument/catalogue.index";

    /** Build time: writes the index of {@link Families#ALL} to the file {@code args[0]}. */
    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        Files.createDirectories(out.getParent());
        Files.writeString(out, write(Families.ALL), StandardCharsets.UTF_8);
    }

    /** The index of {@code hookClasses}; throws where a declaration is wrong, which fails the build. */
    static String write(List<Class<?>> hookClasses) {
        StringBuilder out = new StringBuilder();
        Set<String> prologueTargets = new TreeSet<>();
        List<CallSite> siteDeclarations = new ArrayList<>();
        for (Class<?> c : hookClasses) {
            List<Method> methods = new ArrayList<>(List.of(c.getDeclaredMethods()));
            // The JVM lists methods in no particular order: the file is the same from build to build.
            methods.sort((a, b) -> (a.getName() + Type.getMethodDescriptor(a)).compareTo(b.getName() + Type.getMethodDescriptor(b)));
            for (Method m : methods) {
                Prologue p = m.getAnnotation(Prologue.class);
                CallSite s = m.getAnnotation(CallSite.class);
                Constructed made = m.getAnnotation(Constructed.class);
                if (p == null && s == null && made == null) {
                    continue;
                }
                if (!Modifier.isStatic(m.getModifiers()) || !Modifier.isPublic(m.getModifiers())) {
                    throw new IllegalStateException("hook " + c.getName() + "." + m.getName() + " must be public static");
                }
                String hook = Type.getInternalName(c) + '\t' + m.getName() + '\t' + Type.getMethodDescriptor(m);
                if (p != null) {
                    if (!prologueTargets.add(p.owner() + "." + p.method() + p.desc())) {
                        throw new IllegalStateException(p.owner() + "." + p.method() + p.desc() + " is hooked twice, once by "
                                + c.getName() + "." + m.getName());
                    }
                    line(out, "P", p.owner(), p.method(), p.desc(), Boolean.toString(p.optional()), p.kind().name(), hook);
                }
                if (made != null) {
                    Type type = Type.getType(m);
                    if (type.getReturnType() != Type.VOID_TYPE
                            || type.getArgumentTypes().length != Type.getArgumentTypes(made.desc()).length + 1) {
                        throw new IllegalStateException("hook " + m.getName() + type + " does not fit "
                                + made.owner() + ".<init>" + made.desc());
                    }
                    line(out, "C", made.owner(), made.desc(), hook);
                }
                if (s != null) {
                    for (CallSite other : siteDeclarations) {
                        if (other.kind() == s.kind() && other.method().equals(s.method()) && other.desc().equals(s.desc())
                                && (other.owner().equals(s.owner()) || other.owner().equals("*") || s.owner().equals("*"))) {
                            // The rewriter takes the first hook that matches a call: two would depend on order.
                            throw new IllegalStateException(s.owner() + "." + s.method() + s.desc() + " is hooked twice, once by "
                                    + c.getName() + "." + m.getName());
                        }
                    }
                    if (s.inherited() && (s.kind() != CallSite.Kind.VIRTUAL || s.owner().equals("*"))) {
                        throw new IllegalStateException(c.getName() + "." + m.getName() + ": only a named class's virtual method is inherited");
                    }
                    siteDeclarations.add(s);
                    String alsoIn = s.alsoIn().length == 0 ? "-" : String.join(",", s.alsoIn());
                    line(out, "S", s.kind().name(), s.owner(), s.method(), s.desc(), Boolean.toString(s.programOnly()),
                            Boolean.toString(s.inherited()), alsoIn, hook);
                }
            }
        }
        return out.toString();
    }

    private static void line(StringBuilder out, String... fields) {
        out.append(String.join("\t", fields)).append('\n');
    }

    /** Start-up: the index in the agent jar {@code jar}. */
    public static CatalogueIndex of(ZipFile jar) throws IOException {
        ZipEntry entry = jar.getEntry(RESOURCE);
        if (entry == null) {
            throw new IOException(jar.getName() + " has no " + RESOURCE);
        }
        try (InputStream in = jar.getInputStream(entry)) {
            return read(in);
        }
    }

    private static CatalogueIndex read(InputStream in) throws IOException {
        List<Catalogue.PrologueHook> prologues = new ArrayList<>();
        List<Catalogue.SiteHook> sites = new ArrayList<>();
        List<Catalogue.ConstructedHook> constructed = new ArrayList<>();
        Set<String> siteClasses = new java.util.HashSet<>();
        for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
            String[] f = line.split("\t");
            switch (f[0]) {
                case "P" -> prologues.add(new Catalogue.PrologueHook(f[1], f[2], f[3], Boolean.parseBoolean(f[4]),
                        Prologue.Kind.valueOf(f[5]), f[6], f[7], f[8]));
                case "C" -> constructed.add(new Catalogue.ConstructedHook(f[1], f[2], f[3], f[4], f[5]));
                case "S" -> {
                    List<String> packages = new ArrayList<>();
                    for (String where : f[7].equals("-") ? new String[0] : f[7].split(",")) {
                        (where.endsWith("/") ? packages : siteClasses).add(where);
                    }
                    sites.add(new Catalogue.SiteHook(CallSite.Kind.valueOf(f[1]), f[2], f[3], f[4], Boolean.parseBoolean(f[5]),
                            Boolean.parseBoolean(f[6]), List.copyOf(packages), f[8], f[9], f[10]));
                }
                default -> throw new IOException("catalogue index: unknown line " + line);
            }
        }
        return new CatalogueIndex(prologues, sites, constructed, siteClasses);
    }
}
