package bench;

import java.util.Map;

import net.sourceforge.pmd.PMDConfiguration;
import net.sourceforge.pmd.PmdAnalysis;
import net.sourceforge.pmd.lang.document.FileId;
import net.sourceforge.pmd.reporting.Report;

/**
 * pmd: analyses the first F JDK source files with PMD's Java quickstart rule set on PMD's own pool
 * of N worker threads, each analysing the files it takes with its own copy of the rules, as
 * DaCapo's pmd runs it; the violations are sorted before the digest, so it does not depend on
 * which thread found them.
 */
public final class Pmd {
    private Pmd() {
    }

    public static void main(String[] args) throws Exception {
        Timed.begin();
        int files = Integer.parseInt(args[0]);
        int threads = Integer.parseInt(args[1]);
        PMDConfiguration config = new PMDConfiguration();
        config.setThreads(threads);
        config.setIgnoreIncrementalAnalysis(true);
        config.addRuleSet("rulesets/java/quickstart.xml");
        Report report;
        try (PmdAnalysis pmd = PmdAnalysis.create(config)) {
            for (Map.Entry<String, String> e : Sources.javaFiles(files).entrySet()) {
                pmd.files().addSourceFile(FileId.fromPathLikeString(e.getKey()), e.getValue());
            }
            report = pmd.performAnalysisAndCollectReport();
        }
        ResultDigest digest = new ResultDigest();
        report.getViolations().stream()
                .map(v -> v.getFileId().getOriginalPath() + ":" + v.getBeginLine() + ":" + v.getBeginColumn() + " "
                        + v.getRule().getName() + " " + v.getDescription())
                .sorted().forEach(digest::add);
        digest.add(report.getProcessingErrors().size());
        digest.print("pmd");
        Timed.end();
    }

}
