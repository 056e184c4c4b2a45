/* tests/bench/sp_recount.c - an independent check of an sp run, apart from
 * clirr's own reader and verifier: read a DIMACS CNF file and an
 * assignment (line i: the value of variable i+1, 0 or 1) and print the
 * number of clauses it satisfies, and whether that is the count the run's
 * JSON reports ("satisfied"). Used by tests/bench/sp.sh where a run skips
 * the serial reference (--no-verify) because it would take too long.
 *   cc -O2 -o sp_recount sp_recount.c && ./sp_recount F.cnf F.sol [F.json] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: sp_recount FORMULA.cnf ASSIGNMENT [RUN.json]\n");
        return 2;
    }
    FILE *sol = fopen(argv[2], "r");
    if (!sol)
        return perror(argv[2]), 2;
    size_t n = 0, cap = 1 << 20;
    unsigned char *val = malloc(cap);
    int c;
    while ((c = fgetc(sol)) != EOF) {
        if (c == '\n')
            continue;
        if (c != '0' && c != '1')
            return fprintf(stderr, "%s: line %zu is not 0 or 1\n", argv[2], n + 1), 1;
        if (n == cap)
            val = realloc(val, cap *= 2);
        val[n++] = (unsigned char)(c - '0');
    }
    fclose(sol);
    FILE *f = fopen(argv[1], "r");
    if (!f)
        return perror(argv[1]), 2;
    char line[1 << 16];
    unsigned long long clauses = 0, sat = 0, vars = 0, declared = 0;
    int in_clause_sat = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == 'c' || line[0] == '%')
            continue;
        if (line[0] == 'p') {
            sscanf(line, "p cnf %llu %llu", &vars, &declared);
            continue;
        }
        for (char *p = line, *e; ; p = e) {
            long l = strtol(p, &e, 10);
            if (e == p)
                break;
            if (l == 0) {
                clauses++;
                sat += in_clause_sat;
                in_clause_sat = 0;
                continue;
            }
            unsigned long v = (unsigned long)(l < 0 ? -l : l);
            if (v > n)
                return fprintf(stderr, "variable %lu has no value (%zu given)\n", v, n), 1;
            in_clause_sat |= (val[v - 1] == 1) == (l > 0);
        }
    }
    fclose(f);
    long long reported = -1;
    if (argc > 3) {
        FILE *j = fopen(argv[3], "r");
        static char text[1 << 22];
        size_t len = j ? fread(text, 1, sizeof text - 1, j) : 0;
        text[len] = 0;
        char *s = strstr(text, "\"satisfied\":");
        if (s)
            reported = atoll(s + strlen("\"satisfied\":"));
        if (j)
            fclose(j);
    }
    printf("%s: %llu variables, %llu of %llu clauses satisfied (declared %llu); run reports %lld: %s\n", argv[1],
           vars, sat, clauses, declared, reported,
           reported < 0 ? "no report" : (unsigned long long)reported == sat ? "AGREE" : "DISAGREE");
    return reported < 0 || (unsigned long long)reported == sat ? 0 : 1;
}
