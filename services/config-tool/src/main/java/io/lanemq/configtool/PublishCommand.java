package io.lanemq.configtool;

import io.lanemq.config.Canary;
import io.lanemq.config.CanaryTarget;
import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.etcd.EtcdException;
import io.lanemq.config.store.ConfigStore;
import io.lanemq.config.store.PendingCanary;
import io.lanemq.config.store.PublishGuard;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.config.store.PublishOutcome;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Validates, diffs against the live document, then writes with compare-and-swap on the key's revision (the one read
 * just before, or {@code --expect-revision}): a change published in between, by the console or another operator, is
 * refused rather than overwritten. The write and its history entry under {@code <key>.history/} are one etcd
 * transaction, the console's ({@link ConfigStore}), so the console's history shows the tool's publications too.
 * With {@code --canary} the file goes to {@code <key>.canary} for the chosen clients only; a publish to everyone waits
 * until a pending canary is promoted or abandoned.
 */
@Command(name = "publish", mixinStandardHelpOptions = true, description = "Validates a file, shows its diff against "
        + "the etcd key, then writes it only if the key is still at the revision read (or --expect-revision); "
        + "an invalid file is never written, a concurrent change never overwritten.")
final class PublishCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "<file>", description = "The YAML or JSON document.")
    Path file;

    @Mixin
    EtcdOptions etcd;

    @Option(names = "--expect-revision", paramLabel = "<revision>", description = "Publish only if the key was last "
            + "written at this revision (as show or diff printed it; 0: the key must not exist). Default: the revision "
            + "read just before writing.")
    Long expectRevision;

    @Option(names = "--dry-run", description = "Validate and print the diff against the key; write nothing.")
    boolean dryRun;

    @Option(names = {"-m", "--comment"}, paramLabel = "<why>", description = "Why, kept in the key's history "
            + "(default: \"published with lanemq-config\").")
    String comment = "published with lanemq-config";

    @Option(names = "--author", paramLabel = "<name>", description = "Who, kept in the key's history (default: ${sys:user.name}).")
    String author = System.getProperty("user.name", "unknown");

    @Option(names = "--force", description = "Publish even when the change trips a guard rail (a logic topic or "
            + "environment removed, every IDC that carried traffic drained at once); the reasons are still printed.")
    boolean force;

    @Option(names = "--canary", description = "Publish to a subset of the clients only (--instance, --application, "
            + "--percent), beside the configuration in <key>.canary; then 'promote' or 'abandon' it.")
    boolean canary;

    @Option(names = "--instance", split = ",", paramLabel = "<id>", description = "With --canary: these instances (pod names).")
    List<String> instances = new ArrayList<>();

    @Option(names = "--application", split = ",", paramLabel = "<name>", description = "With --canary: instances of these "
            + "applications only (all of them unless --percent).")
    List<String> applications = new ArrayList<>();

    @Option(names = "--percent", paramLabel = "<0-99>", description = "With --canary: this share of each application's "
            + "instances, chosen by a stable hash of the instance id.")
    int percent;

    @Option(names = "--replace-canary", description = "With --canary: replace the pending canary (e.g. to widen it).")
    boolean replaceCanary;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        CanaryTarget target = canaryTarget();
        ConfigFile config = ConfigFile.read(file, err);
        if (config == null) {
            err.println("not published: etcd key " + etcd.key + " is unchanged");
            return ConfigTool.INVALID;
        }
        out.print("VALID " + file + "\n" + ConfigSummary.of(config.config()));
        try (EtcdClient client = etcd.connect()) {
            ConfigStore store = new ConfigStore(client, etcd.key);
            Optional<PendingCanary> pending = store.canary();
            if (pending.isPresent() && !(canary && replaceCanary)) {
                err.println("not published: " + Canaries.describe(pending.get(), etcd.key) + "; "
                        + (canary ? "replace it with --replace-canary, or " : "") + "promote or abandon it first");
                return ConfigTool.CONFLICT;
            }
            LiveComparison comparison = LiveComparison.of(config, store);
            long expected = expectRevision != null ? expectRevision : comparison.live().revision();
            if (expected != comparison.live().revision()) {
                err.println(conflict(expected, comparison.live().revision()));
                return ConfigTool.CONFLICT;
            }
            DiffCommand.print(comparison, out, err, etcd.key);
            if (comparison.unchanged()) {
                out.println("not published: etcd key " + etcd.key + " already holds " + file + " (" + comparison.liveState() + ")");
                return ConfigTool.OK;
            }
            List<String> refusals;
            try {
                refusals = PublishGuard.refusals(comparison.live().yaml(), config.text());
            } catch (InvalidConfigurationException e) {
                err.println("not published: " + e.getMessage()); // validated above; kept for a parser that disagrees
                return ConfigTool.INVALID;
            }
            if (!refusals.isEmpty()) {
                if (!force) {
                    refusals.forEach(reason -> err.println("refused: " + reason));
                    err.println("not published: the change trips " + refusals.size() + " guard rail"
                            + (refusals.size() == 1 ? "" : "s") + "; if it is meant, publish with --force");
                    return ConfigTool.GUARDED;
                }
                refusals.forEach(reason -> err.println("forced past: " + reason));
            }
            if (dryRun) {
                out.println("dry run: would publish " + file + (canary ? " as a canary to " + target.describe() : "")
                        + " to etcd key " + etcd.key + " over revision " + expected + "; nothing written");
                return ConfigTool.OK;
            }
            if (canary) {
                PublishOutcome outcome = store.publishCanary(pending.map(PendingCanary::revision).orElse(0L),
                        new Canary(expected, target, config.text()), author, comment, comparison.diff());
                if (!outcome.written()) {
                    err.println("not published: etcd key " + etcd.key + " or its canary changed in between; nothing was "
                            + "written. Review them with 'history' and 'diff', then publish again.");
                    return ConfigTool.CONFLICT;
                }
                out.println("published " + file + " as a canary to " + target.describe() + " in etcd key " + store.canaryKey()
                        + " at revision " + outcome.revision() + " (over " + etcd.key + " " + comparison.liveState()
                        + "); promote it with 'promote', or abandon it with 'abandon'");
                return ConfigTool.OK;
            }
            // The file's own text, comments and all: what operators review is what the SDKs read.
            PublishOutcome outcome = store.publish(expected, config.text(), comparison.live().yaml(), author, comment,
                    "publish " + file.getFileName(), comparison.diff());
            if (!outcome.written()) {
                err.println(outcome.canaryPending() ? "not published: a canary appeared in " + store.canaryKey()
                        + " in between; promote or abandon it first" : conflict(expected, outcome.revision()));
                return ConfigTool.CONFLICT;
            }
            out.println("published " + file + " to etcd key " + etcd.key + " on [" + client.describe() + "] at revision "
                    + outcome.revision() + " (was " + comparison.liveState() + "); history in " + etcd.key + ".history/");
            return ConfigTool.OK;
        } catch (EtcdException e) {
            err.println("not published: " + e.getMessage());
            return ConfigTool.ETCD_FAILED;
        }
    }

    /** The subset of a --canary publish; null for a publish to everyone. */
    private CanaryTarget canaryTarget() {
        boolean subset = !instances.isEmpty() || !applications.isEmpty() || percent != 0 || replaceCanary;
        if (!canary) {
            if (subset) {
                throw new ParameterException(spec.commandLine(), "--instance, --application, --percent and "
                        + "--replace-canary choose a canary's clients: add --canary");
            }
            return null;
        }
        try {
            return new CanaryTarget(instances, applications, percent);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage() + " (--instance, --application, --percent)", e);
        }
    }

    private String conflict(long expected, long actual) {
        return "not published: etcd key " + etcd.key + " was expected at revision " + expected + " but is "
                + (actual == 0 ? "absent" : "at revision " + actual) + ": it changed in between (the console or another "
                + "operator); nothing was written. Review it with 'diff', then publish again.";
    }
}
