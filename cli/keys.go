package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"thesischeck/keys"
)

func init() { commands["keys"] = runKeys }

// runKeys shows the installation's signing key, and lists, adds and removes the keys it trusts.
func runKeys(_ context.Context, args []string, stdout, stderr io.Writer) error {
	sub := ""
	if len(args) > 0 {
		sub, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("keys "+sub, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	name := fs.String("name", "", "the name to trust the key under")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(stderr, "keys "+sub, err.Error())
	}
	dir, err := keys.DefaultDir()
	if err != nil {
		return err
	}
	switch {
	case sub == "" && len(rest) == 0:
		s, err := keys.LoadOrCreate(dir)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Your reports are signed with this key (%s):\n", keys.Algorithm(s.Key.Public()))
		fmt.Fprintf(stdout, "  fingerprint  %s\n", s.Fingerprint())
		fmt.Fprintf(stdout, "  certificate  %s\n", s.CertPath)
		fmt.Fprintf(stdout, "  subject      %s, valid until %s\n", s.Cert.Subject.CommonName, s.Cert.NotAfter.Format("2006-01-02"))
		fmt.Fprintf(stdout, "Give the certificate file to whoever reads your reports, and tell them the fingerprint\n")
		fmt.Fprintf(stdout, "another way (in person, by phone); they run:\n  thesischeck keys trust %s --name \"YOUR NAME\"\n", keys.CertFile)
		if legacy, err := keys.LegacyKey(dir); err == nil && legacy != nil {
			fmt.Fprintf(stdout, "Your previous key (Ed25519, %s) signed your reports before ThesisCheck signed PDF files;\n", keys.Fingerprint(legacy))
			fmt.Fprintf(stdout, "it signs nothing any more, and the JSON reports it signed still verify.\n")
		}
		return nil
	case sub == "list" && len(rest) == 0:
		store, err := keys.Open(dir)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "FINGERPRINT\tNAME\tKEY\tSUBJECT\tADDED")
		for _, k := range store.Keys() {
			added := "(own)"
			if !k.Own {
				added = k.Added.Local().Format("2006-01-02")
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.Fingerprint, k.Name, k.Algorithm, k.Subject, added)
		}
		return tw.Flush()
	case sub == "trust" && len(rest) == 1:
		store, err := keys.Open(dir)
		if err != nil {
			return err
		}
		k, added, err := store.Trust(rest[0], *name)
		if err != nil {
			return err
		}
		verb := "trusted"
		if !added {
			verb = "already trusted"
		}
		fmt.Fprintf(stdout, "%s %q: %s key %s", verb, k.Name, k.Algorithm, k.Fingerprint)
		if k.Subject != "" {
			fmt.Fprintf(stdout, " (%s)", k.Subject)
		}
		fmt.Fprintln(stdout, "\nCheck that this fingerprint is the one its owner told you; reports it signed now verify as valid.")
		return nil
	case sub == "remove" && len(rest) == 1:
		store, err := keys.Open(dir)
		if err != nil {
			return err
		}
		k, err := store.Remove(rest[0])
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "removed %q (%s): reports it signed no longer verify as valid\n", k.Name, k.Fingerprint)
		return nil
	}
	if sub != "" && sub != "list" && sub != "trust" && sub != "remove" {
		return usageError(stderr, "keys", fmt.Sprintf("unknown command %q: list, trust or remove", sub))
	}
	want := "one argument"
	if sub == "" || sub == "list" {
		want = "no arguments"
	}
	return usageError(stderr, strings.TrimSpace("keys "+sub), "takes "+want+", "+got(rest))
}
