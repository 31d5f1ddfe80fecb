package io.lanemq.configtool;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code lanemq-config}: validates a platform configuration file, shows its diff against what an etcd key holds,
 * publishes it there (to every client, or as a canary to some, then promoted or abandoned; see {@link PublishCommand}) (validated first, so an invalid document never reaches the SDKs watching the key; with
 * compare-and-swap on the key's revision, so a concurrent change is never overwritten) and shows what a key holds.
 *
 * <pre>{@code
 * java -jar lanemq-config.jar validate platform.yaml
 * java -jar lanemq-config.jar diff platform.yaml --etcd 10.0.0.1:2379 --key /lanemq/platform/prod --cacert /etc/lanemq/etcd-ca.pem ...
 * java -jar lanemq-config.jar publish platform.yaml --dry-run --etcd ...      # validate and diff, write nothing
 * java -jar lanemq-config.jar publish platform.yaml -m "drain idc-b, ticket 42" --expect-revision 1207 --etcd 10.0.0.1:2379,10.0.0.2:2379 --key /lanemq/platform/prod \
 *     --cacert /etc/lanemq/etcd-ca.pem --user ops --password-file ~/.lanemq/etcd-password
 * java -jar lanemq-config.jar publish platform.yaml --canary --percent 10 --application billing -m "idc-b to 40%, ticket 43" --etcd ...
 * java -jar lanemq-config.jar promote -m "billing fine for 30 min" --etcd ...     # or: abandon -m "..."
 * java -jar lanemq-config.jar history --etcd ...                                   # rollback <revision> -m "..." --etcd ...
 * java -jar lanemq-config.jar seek order-paid billing --to-time 2026-11-27T08:00:00Z --config file:/etc/lanemq/platform.yaml
 * java -jar lanemq-config.jar dlq list order-paid billing --config file:/etc/lanemq/platform.yaml   # dlq show, dlq replay --all
 * java -jar lanemq-config.jar show --etcd 10.0.0.1:2379 --key /lanemq/platform/prod --cacert /etc/lanemq/etcd-ca.pem \
 *     --cert ops.pem --cert-key ops-key.pem
 * }</pre>
 *
 * <p>Plaintext etcd is accepted on loopback addresses only (tests). Exit codes: 0 done, 1 invalid document or
 * missing key, 2 usage error, 3 etcd unreachable or failed, 4 not published because the key changed in between (or a
 * canary is pending), 5 refused by a guard rail ({@link io.lanemq.config.store.PublishGuard}).
 */
@Command(name = "lanemq-config", mixinStandardHelpOptions = true, version = "lanemq-config 0.1.0",
        description = "Validates LaneMQ platform configuration and publishes it to etcd.",
        subcommands = {ValidateCommand.class, DiffCommand.class, PublishCommand.class, ShowCommand.class,
                CanaryStepCommand.Promote.class, CanaryStepCommand.Abandon.class, HistoryCommand.class, RollbackCommand.class,
                SeekCommand.class, DlqCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:invalid document, or no such key", "2:usage error", "3:etcd unreachable or failed",
                "4:not published: the key changed since the expected revision, or a canary is pending",
                "5:not published: the change trips a guard rail (publish --force if it is meant)",
                "6:seek: not every cluster moved; dlq: a cluster not read, or a replay not sent"})
public final class ConfigTool implements Runnable {
    static final int OK = 0;
    static final int INVALID = 1;
    static final int ETCD_FAILED = 3;
    static final int CONFLICT = 4;
    static final int GUARDED = 5;
    static final int INCOMPLETE = 6;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        CommandLine commandLine = commandLine();
        int exitCode = commandLine.execute(args);
        commandLine.getOut().flush();
        commandLine.getErr().flush();
        System.exit(exitCode);
    }

    static CommandLine commandLine() {
        return new CommandLine(new ConfigTool());
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a subcommand: validate, diff, publish, show, promote, abandon, history, rollback, seek or dlq");
    }
}
