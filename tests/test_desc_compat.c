/*
 * The desc compatibility rule (types.h): a desc's size is fixed within a
 * major version; init functions write exactly that many bytes and zero the
 * reserved words; a non-zero reserved word (a field this library does not
 * know) is refused with CLOTH_ERR_UNSUPPORTED and creates nothing.
 */
#include "test_util.h"

#include <string.h>

static void grid_init_writes_only_its_struct(void)
{
    /* a canary after the struct must survive init */
    unsigned char buf[sizeof(cloth_grid_desc) + 64];
    memset(buf, 0xA5, sizeof buf);
    cloth_grid_desc_init((cloth_grid_desc *)(void *)buf);
    int canary_ok = 1;
    for (size_t k = sizeof(cloth_grid_desc); k < sizeof buf; ++k) {
        canary_ok = canary_ok && buf[k] == 0xA5;
    }
    CHECK(canary_ok);
    cloth_grid_desc d;
    cloth_grid_desc_init(&d);
    CHECK(d.struct_size == sizeof d);
    int zero = 1;
    for (size_t k = 0; k < sizeof d.reserved / sizeof d.reserved[0]; ++k) {
        zero = zero && d.reserved[k] == 0u;
    }
    CHECK(zero);
}

static void reserved_words_refused(void)
{
    for (size_t k = 0; k < sizeof(((cloth_grid_desc *)0)->reserved) / sizeof(uint32_t); ++k) {
        cloth_grid_desc d;
        cloth_t *c = (cloth_t *)&d; /* any non-NULL value: must be reset to NULL */
        cloth_grid_desc_init(&d);
        d.rows = 4;
        d.cols = 4;
        d.reserved[k] = 1u;
        CHECK_STATUS(cloth_create_grid(&d, &c), CLOTH_ERR_UNSUPPORTED);
        CHECK(c == NULL);
    }
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 0, 1};
    const uint32_t tri[3] = {0, 2, 1};
    for (size_t k = 0; k < sizeof(((cloth_mesh_desc *)0)->reserved) / sizeof(uint32_t); ++k) {
        cloth_mesh_desc m;
        cloth_t *c = NULL;
        cloth_mesh_desc_init(&m);
        m.positions = pos;
        m.vertex_count = 3;
        m.triangles = tri;
        m.triangle_count = 1;
        CHECK_OK(cloth_create_mesh(&m, &c));
        cloth_destroy(c);
        m.reserved[k] = 7u;
        CHECK_STATUS(cloth_create_mesh(&m, &c), CLOTH_ERR_UNSUPPORTED);
        CHECK(c == NULL);
    }
}

static void mesh_init_writes_only_its_struct(void)
{
    unsigned char buf[sizeof(cloth_mesh_desc) + 64];
    memset(buf, 0x5A, sizeof buf);
    cloth_mesh_desc_init((cloth_mesh_desc *)(void *)buf);
    int canary_ok = 1;
    for (size_t k = sizeof(cloth_mesh_desc); k < sizeof buf; ++k) {
        canary_ok = canary_ok && buf[k] == 0x5A;
    }
    CHECK(canary_ok);
}

int main(void)
{
    grid_init_writes_only_its_struct();
    mesh_init_writes_only_its_struct();
    reserved_words_refused();
    printf("grid desc %zu bytes, mesh desc %zu bytes\n", sizeof(cloth_grid_desc), sizeof(cloth_mesh_desc));
    return test_finish("test_desc_compat");
}
