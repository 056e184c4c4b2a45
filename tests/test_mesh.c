/* tests/test_mesh.c - triangle meshes as inputs: Triangle's .node / .ele
 * / .poly reader on good files (comments, 0- and 1-based ids, attributes,
 * markers, holes and regions, gzip, boundary edges a .poly leaves out
 * added as segments) and a table of malformed ones with the file, line
 * and reason each must give; the writer's round trip; the generator
 * (hashes pinned, so every machine makes the same mesh; structure checked;
 * bad specs refused); the structure check catching a broken mesh;
 * mutated .node and .ele files (accepted valid or refused naming the
 * file, never a crash) and the fuzz harness's smoke run. */
#include "harness.h"
#include "reader_fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PREFIX.node, .ele and (when poly) .poly under the temporary folder. */
static bool write_mesh(const char *prefix, const char *node, const char *ele, const char *poly)
{
    char path[1200];
    snprintf(path, sizeof path, "%s.node", prefix);
    if (!th_write_text(path, node))
        return false;
    snprintf(path, sizeof path, "%s.ele", prefix);
    if (ele && !th_write_text(path, ele))
        return false;
    if (!ele)
        remove(path);
    snprintf(path, sizeof path, "%s.poly", prefix);
    if (poly)
        return th_write_text(path, poly);
    remove(path);
    return true;
}

static const char square_node[] = "4 2 0 0\n1 0 0\n2 1 0\n3 1 1\n4 0 1\n";
static const char square_ele[] = "2 3 0\n1 1 2 3\n2 1 3 4\n";

static void read_good(th_case *tc)
{
    clirr_error err;
    clirr_mesh m = {0}, g = {0};
    char prefix[1024];
    snprintf(prefix, sizeof prefix, "%s/good", th_tmp_dir());
    /* 0-based, comments, an attribute and markers, one segment given
     * backwards (the other three are added), a hole and a region. */
    TH_REQUIRE(tc, write_mesh(prefix, "# square\n4 2 1 1\n0 0 0 7.5 1\n1 1.0 0 7 1 # corner\n\n2 1 1e0 0 1\n3 0 1 0 1\n",
                              "2 3 1\r\n0 0 1 2 0.5\n1 0 2 3 0.25\n",
                              "0 2 0 1\n1 1\n0 1 0 5\n1\n0 0.5 0.5\n1\n0 0.2 0.2 3 0.1\n"),
               "cannot write");
    TH_OK(tc, clirr_mesh_read(prefix, &m, &err));
    TH_REQUIRE(tc, m.npoints == 4 && m.ntri == 2 && m.nseg == 4, "counts %u %u %u", m.npoints, m.ntri, m.nseg);
    static const uint32_t tri[] = {0, 1, 2, 0, 2, 3};
    TH_REQUIRE(tc, !memcmp(m.tri, tri, sizeof tri) && m.xy[2] == 1.0 && m.xy[5] == 1.0, "triangles or points differ");
    TH_REQUIRE(tc, m.seg[0] == 0 && m.seg[1] == 1, "segment 0 not oriented as its triangle: %u %u", m.seg[0], m.seg[1]);
    uint32_t nb[6];
    TH_OK(tc, clirr_mesh_neighbors(&m, nb, &err));
    TH_REQUIRE(tc, nb[1] == 1 && nb[5] == 0 && nb[0] == CLIRR_MESH_NONE && nb[4] == CLIRR_MESH_NONE,
               "neighbours %u %u %u %u", nb[1], nb[5], nb[0], nb[4]);
    TH_OK(tc, clirr_mesh_check(&m, "square", &err));
    /* Written and read again, plain and gzipped, through either name. */
    uint64_t h = clirr_mesh_hash(&m);
    const char *names[] = {"copy", "copy2.node.gz", "copy3.node"};
    for (int i = 0; i < 3; i++) {
        char out[1200];
        snprintf(out, sizeof out, "%s/%s", th_tmp_dir(), names[i]);
        TH_OK(tc, clirr_mesh_write(out, false, &m, &err));
        TH_OK(tc, clirr_mesh_read(out, &g, &err));
        TH_REQUIRE(tc, clirr_mesh_hash(&g) == h, "%s: round trip changed the mesh", names[i]);
        clirr_mesh_free(&g);
    }
    /* No .poly: the boundary becomes the segments. */
    TH_REQUIRE(tc, write_mesh(prefix, square_node, square_ele, NULL), "cannot write");
    TH_OK(tc, clirr_mesh_read(prefix, &g, &err));
    TH_REQUIRE(tc, g.nseg == 4, "%u segments", g.nseg);
done:
    clirr_mesh_free(&m);
    clirr_mesh_free(&g);
}

/* Each malformed mesh, the file and line its message names, and a piece
 * of the message. */
static const struct bad_mesh {
    const char *node, *ele, *poly;
    const char *where; /* ".ele:2: " */
    const char *msg;
} bad_meshes[] = {
    {"", square_ele, NULL, ".node:", "the file ends before the header"},
    {"4 3 0 0\n1 0 0 0\n", square_ele, NULL, ".node:1: ", "dimension 3"},
    {"4 2 0\n", square_ele, NULL, ".node:1: ", "the number of boundary markers"},
    {"4 2 0 2\n", square_ele, NULL, ".node:1: ", "the number of boundary markers, 0 or 1"},
    {"2 2 0 0\n1 0 0\n2 1 0\n", square_ele, NULL, ".node:1: ", "the number of points (3 or more)"},
    {"5 2 0 0\n1 0 0\n2 1 0\n3 1 1\n4 0 1\n", square_ele, NULL, ".node:", "declares 5 points, the file holds 4"},
    {"3 2 0 0\n1 0 0\n2 1 0\n3 1 1\n4 0 1\n", square_ele, NULL, ".node:5: ", "more points than the 3"},
    {"4 2 0 0\n1 0 0\n3 1 0\n3 1 1\n4 0 1\n", square_ele, NULL, ".node:3: ", "point number 2"},
    {"4 2 0 0\n2 0 0\n3 1 0\n4 1 1\n5 0 1\n", square_ele, NULL, ".node:2: ", "0 or 1"},
    {"4 2 0 0\n1 0 0\n2 x 0\n3 1 1\n4 0 1\n", square_ele, NULL, ".node:3: ", "x, a finite real"},
    {"4 2 0 0\n1 0 0\n2 1 inf\n3 1 1\n4 0 1\n", square_ele, NULL, ".node:3: ", "y, a finite real"},
    {"4 2 0 0\n1 0 0\n2 1 0 5\n3 1 1\n4 0 1\n", square_ele, NULL, ".node:3: ", "end of line after 'ID X Y"},
    {"4 2 1 0\n1 0 0\n2 1 0\n3 1 1 2\n4 0 1 2\n", square_ele, NULL, ".node:2: ", "an attribute"},
    {square_node, "2 6 0\n1 1 2 3 4 5 6\n", NULL, ".ele:1: ", "linear triangles (3 points)"},
    {square_node, "0 3 0\n", NULL, ".ele:1: ", "the number of triangles (1 or more)"},
    {square_node, "2 3 0\n1 1 2 5\n2 1 3 4\n", NULL, ".ele:2: ", "a point number from 1 to 4"},
    {square_node, "2 3 0\n1 1 2 0\n2 1 3 4\n", NULL, ".ele:2: ", "a point number from 1 to 4"},
    {square_node, "2 3 0\n1 1 3 2\n2 1 3 4\n", NULL, ".ele:2: ", "triangle 1 is clockwise"},
    {square_node, "2 3 0\n1 1 2 3\n2 1 1 4\n", NULL, ".ele:3: ", "names a point twice"},
    {"4 2 0 0\n1 0 0\n2 1 0\n3 2 0\n4 0 1\n", "2 3 0\n1 1 2 3\n2 1 3 4\n", NULL, ".ele:2: ", "triangle 1 is degenerate"},
    {square_node, "2 3 0\n0 1 2 3\n1 1 3 4\n", NULL, ".ele:2: ", "numbered from 0, the points from 1"},
    {square_node, "3 3 0\n1 1 2 3\n2 1 3 4\n", NULL, ".ele:", "declares 3 triangles, the file holds 2"},
    {square_node, "1 3 0\n1 1 2 3\n2 1 3 4\n", NULL, ".ele:3: ", "more triangles than the 1"},
    {square_node, "2 3 0\n1 1 2 3\n3 1 3 4\n", NULL, ".ele:3: ", "triangle number 2"},
    {square_node, "3 3 0\n1 1 2 3\n2 1 3 4\n3 1 2 3\n", NULL, ".ele:4: ", "both hold edge"},
    {"5 2 0 0\n1 0 0\n2 1 0\n3 1 1\n4 0 1\n5 3 3\n", square_ele, NULL, ".node:6: ", "point 5 is a corner of no triangle"},
    {"5 2 0 0\n1 0 0\n2 1 0\n3 1 1\n4 2 1\n5 2 2\n", "2 3 0\n1 1 2 3\n2 3 4 5\n", NULL, ".node:4: ",
     "the boundary passes point 3 twice"},
    {square_node, square_ele, "4 2 0 0\n", ".poly:1: ", "the .poly lists 4 points"},
    {square_node, square_ele, "0 2 0 0\n1 0\n1 1 3\n0\n", ".poly:3: ", "segment 1 (1, 3) is no boundary edge"},
    {square_node, square_ele, "0 2 0 0\n2 0\n1 1 2\n2 2 1\n0\n", ".poly:4: ", "segment 2 (2, 1) repeats segment 1"},
    {square_node, square_ele, "0 2 0 0\n1 0\n1 1 1\n0\n", ".poly:3: ", "joins point 1 to itself"},
    {square_node, square_ele, "0 2 0 0\n1 0\n1 1 2\n", ".poly:", "the file ends before the number of holes"},
    {square_node, square_ele, "0 2 0 0\n1 0\n1 1 2\n1\n", ".poly:", "the file ends before every hole"},
    {square_node, square_ele, "0 2 0 0\n1 0\n1 1 2 4\n0\n", ".poly:3: ", "end of line after 'ID A B"},
    {square_node, square_ele, "0 2 0 0\n1 0\n1 1 2\n0\n0\n7\n", ".poly:6: ", "more regions than the 0"},
    {square_node, NULL, NULL, ".ele: no such file", "PREFIX.ele"},
};

static void read_bad(th_case *tc)
{
    clirr_error err;
    char prefix[1024];
    snprintf(prefix, sizeof prefix, "%s/bad", th_tmp_dir());
    for (size_t i = 0; i < sizeof bad_meshes / sizeof bad_meshes[0]; i++) {
        const struct bad_mesh *b = &bad_meshes[i];
        TH_REQUIRE(tc, write_mesh(prefix, b->node, b->ele, b->poly), "cannot write");
        clirr_mesh m = {0};
        clirr_error_clear(&err);
        int rc = clirr_mesh_read(prefix, &m, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_INPUT, "case %zu: status %s, not INPUT (%s)", i, clirr_status_name(rc),
                  err.msg);
        TH_EXPECT(tc, m.xy == NULL && m.tri == NULL && m.ntri == 0, "case %zu: the mesh was not cleared", i);
        char want[1200];
        snprintf(want, sizeof want, "%s%s", prefix, b->where);
        TH_EXPECT(tc, strstr(err.msg, want), "case %zu: no '%s' in: %s", i, want, err.msg);
        TH_EXPECT(tc, strstr(err.msg, b->msg), "case %zu: no '%s' in: %s", i, b->msg, err.msg);
        clirr_mesh_free(&m);
    }
    clirr_mesh m = {0};
    TH_EXPECT(tc, clirr_mesh_read("/nonexistent/x", &m, &err) == CLIRR_ERR_INPUT, "a missing file");
done:;
}

static void generate(th_case *tc)
{
    clirr_error err;
    clirr_mesh m = {0}, g = {0};
    /* Pinned: the same mesh on every machine, now and later. */
    static const struct {
        const char *spec;
        uint32_t ntri;
        uint64_t hash;
    } pinned[] = {
        {"mesh:n=100,seed=1", 194, 0xb52f81208440405full},
        {"mesh:n=1000,seed=7,shape=disk", 1962, 0xee5e3dc43e82eb79ull},
        {"mesh:n=3,shape=disk", 1, 0x9b56625944ae4c77ull},
    };
    for (size_t i = 0; i < sizeof pinned / sizeof pinned[0]; i++) {
        TH_OK(tc, clirr_mesh_generate(pinned[i].spec, &m, &err));
        TH_OK(tc, clirr_mesh_check(&m, pinned[i].spec, &err));
        uint64_t h = clirr_mesh_hash(&m);
        TH_EXPECT(tc, h == pinned[i].hash && m.ntri == pinned[i].ntri, "%s: %u triangles, hash %#llx; pinned %u, %#llx",
                  pinned[i].spec, m.ntri, (unsigned long long)h, pinned[i].ntri, (unsigned long long)pinned[i].hash);
        TH_OK(tc, clirr_mesh_generate(pinned[i].spec, &g, &err));
        TH_EXPECT(tc, clirr_mesh_hash(&g) == h, "%s: twice, two meshes", pinned[i].spec);
        clirr_mesh_free(&m);
        clirr_mesh_free(&g);
    }
    /* A square's hull is its 4 corners; Euler: 2n - 2 - hull triangles. */
    TH_OK(tc, clirr_mesh_generate("mesh:n=5000,seed=3", &m, &err));
    TH_EXPECT(tc, m.ntri == 2 * 5000 - 2 - 4 && m.nseg == 4, "%u triangles, %u segments", m.ntri, m.nseg);
    for (uint32_t i = 4; i < m.npoints; i++)
        TH_REQUIRE(tc, m.xy[2 * i] > 0 && m.xy[2 * i] < 1 && m.xy[2 * i + 1] > 0 && m.xy[2 * i + 1] < 1,
                   "point %u outside the square", i);
    /* The check catches a flipped triangle and a dropped one. */
    uint32_t s = m.tri[1];
    m.tri[1] = m.tri[2];
    m.tri[2] = s;
    TH_EXPECT(tc, clirr_mesh_check(&m, "flipped", &err) == CLIRR_ERR_INPUT && strstr(err.msg, "clockwise"),
              "a flipped triangle passed: %s", err.msg);
    m.tri[2] = m.tri[1];
    m.tri[1] = s;
    m.ntri--;
    TH_EXPECT(tc, clirr_mesh_check(&m, "dropped", &err) == CLIRR_ERR_INPUT, "a dropped triangle passed");
    clirr_mesh_free(&m);
    static const char *const bad[] = {"mesh:n=2,shape=disk", "mesh:n=3", "mesh:n=10,shape=triangle", "mesh:seed=3",
                                      "mesh:n=10,q=1", "mesh:n=x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        clirr_error_clear(&err);
        int rc = clirr_mesh_generate(bad[i], &m, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_USAGE && err.msg[0], "%s: status %s", bad[i], clirr_status_name(rc));
        clirr_mesh_free(&m);
    }
    TH_EXPECT(tc, clirr_mesh_spec("mesh:n=3") && !clirr_mesh_spec("ksat:n=3,m=1"), "spec kinds");
done:
    clirr_mesh_free(&m);
    clirr_mesh_free(&g);
}

/* `clirr gen` writes the three files, `convert` round-trips them (gzip
 * and back), and a malformed mesh exits 2 naming its file and line. */
static void cli(th_case *tc)
{
    char out[4096], errbuf[4096], prefix[1024], gz[1100], back[1100];
    snprintf(prefix, sizeof prefix, "%s/cli", th_tmp_dir());
    snprintf(gz, sizeof gz, "%s/cli2.node.gz", th_tmp_dir());
    snprintf(back, sizeof back, "%s/cli3.node", th_tmp_dir());
    clirr_error err;
    clirr_mesh a = {0}, b = {0};
    int rc = th_clirr_run(tc, out, sizeof out, errbuf, sizeof errbuf, "gen", "mesh:n=300,seed=4,shape=disk", "-o",
                          prefix, NULL);
    TH_REQUIRE(tc, rc == 0, "gen: exit %d: %s", rc, errbuf);
    rc = th_clirr_run(tc, out, sizeof out, errbuf, sizeof errbuf, "convert", prefix, gz, NULL);
    TH_REQUIRE(tc, rc == 2, "convert of a bare prefix is no mesh conversion: exit %d", rc);
    char node[1100];
    snprintf(node, sizeof node, "%s.node", prefix);
    rc = th_clirr_run(tc, out, sizeof out, errbuf, sizeof errbuf, "convert", node, gz, NULL);
    TH_REQUIRE(tc, rc == 0, "convert: exit %d: %s", rc, errbuf);
    rc = th_clirr_run(tc, out, sizeof out, errbuf, sizeof errbuf, "convert", gz, back, NULL);
    TH_REQUIRE(tc, rc == 0, "convert back: exit %d: %s", rc, errbuf);
    TH_OK(tc, clirr_mesh_read(prefix, &a, &err));
    TH_OK(tc, clirr_mesh_read(back, &b, &err));
    TH_REQUIRE(tc, clirr_mesh_hash(&a) == clirr_mesh_hash(&b), "round trip changed the mesh");
    clirr_mesh g = {0};
    TH_OK(tc, clirr_mesh_generate("mesh:n=300,seed=4,shape=disk", &g, &err));
    TH_REQUIRE(tc, clirr_mesh_hash(&g) == clirr_mesh_hash(&a), "gen's files differ from the generator's mesh");
    clirr_mesh_free(&g);
    snprintf(prefix, sizeof prefix, "%s/clibad", th_tmp_dir());
    TH_REQUIRE(tc, write_mesh(prefix, square_node, "2 3 0\n1 1 3 2\n2 1 3 4\n", NULL), "cannot write");
    snprintf(node, sizeof node, "%s.node", prefix);
    rc = th_clirr_run(tc, out, sizeof out, errbuf, sizeof errbuf, "convert", node, back, NULL);
    TH_REQUIRE(tc, rc == 2 && strstr(errbuf, ".ele:2: ") && strstr(errbuf, "clockwise"),
               "convert of a bad mesh: exit %d: %s", rc, errbuf);
done:
    clirr_mesh_free(&a);
    clirr_mesh_free(&b);
}

/* The mutated file of a mesh (PREFIX.ele or PREFIX.node) beside the
 * other from data/disk30: read, and the structure of an accepted mesh
 * checked again. */
static int read_beside(const char *path, const char *other_ext, clirr_error *err)
{
    char prefix[1024], src[1024], dst[1100];
    size_t n = strlen(path);
    const char *dot = strrchr(path, '.');
    snprintf(prefix, sizeof prefix, "%.*s", (int)(dot ? (size_t)(dot - path) : n), path);
    snprintf(src, sizeof src, "%s/disk30.%s", th_data_dir(), other_ext);
    snprintf(dst, sizeof dst, "%s.%s", prefix, other_ext);
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    char buf[4096];
    size_t got;
    while (in && out && (got = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, got, out);
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    clirr_mesh m;
    int rc = clirr_mesh_read(prefix, &m, err);
    if (rc == CLIRR_OK && clirr_mesh_check(&m, prefix, err) != CLIRR_OK)
        rc = CLIRR_ERR_VERIFY;
    /* A mutation may show in the other file (a point no triangle uses now):
     * the message names that one, which the mutated file's mesh holds. */
    if (rc == CLIRR_ERR_INPUT && !strstr(err->msg, path) && strstr(err->msg, prefix))
        clirr_fail_context(err, "the mesh of %s", path);
    clirr_mesh_free(&m);
    return rc;
}

static int read_mutated_ele(const char *path, clirr_error *err) { return read_beside(path, "node", err); }
static int read_mutated_node(const char *path, clirr_error *err) { return read_beside(path, "ele", err); }

/* Mutations of data/disk30's .ele and .node: each accepted as a valid
 * mesh or refused naming the file (tests/reader_fuzz.c), then the fuzz
 * harness's smoke run. */
static void fuzz(th_case *tc)
{
    char src[1024];
    snprintf(src, sizeof src, "%s/disk30.node", th_data_dir());
    th_fuzz_reader(tc, src, "fuzzn.node", read_mutated_node, "fuzz-read-mesh");
    snprintf(src, sizeof src, "%s/disk30.ele", th_data_dir());
    th_fuzz_reader(tc, src, "fuzze.ele", read_mutated_ele, "fuzz-read-mesh");
}

TH_REGISTER(register_mesh_tests)
{
    th_add("mesh/read-good", read_good, NULL);
    th_add("mesh/read-bad", read_bad, NULL);
    th_add("mesh/generate", generate, NULL);
    th_add("mesh/cli", cli, NULL);
    th_add("mesh/fuzz", fuzz, NULL);
}
