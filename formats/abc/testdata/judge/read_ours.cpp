// read_ours prints what the Alembic library reads from an archive formats/abc wrote:
// every Points, PolyMesh and Xform object, every sample, every value, one line each,
// floats as %.9g. judge_test.go prints what it wrote the same way and compares.
//
// Usage: read_ours IN.abc
#include <Alembic/AbcCoreFactory/All.h>
#include <Alembic/AbcGeom/All.h>
#include <cstdio>

using namespace Alembic::AbcGeom;

static void vec3s(const char *what, const V3f *v, size_t n) {
    for (size_t i = 0; i < n; i++) printf("%s %.9g %.9g %.9g\n", what, v[i].x, v[i].y, v[i].z);
}

static void timeLine(const TimeSamplingPtr &ts, size_t n) {
    for (size_t k = 0; k < n; k++) printf("time %zu %.9g\n", k, ts->getSampleTime(k));
}

static void points(IPoints &obj) {
    IPointsSchema &s = obj.getSchema();
    size_t n = s.getNumSamples();
    printf("points %s samples %zu\n", obj.getFullName().c_str(), n);
    timeLine(s.getTimeSampling(), n);
    ICompoundProperty arb = s.getArbGeomParams();
    for (size_t k = 0; k < n; k++) {
        IPointsSchema::Sample samp;
        s.get(samp, ISampleSelector((index_t)k));
        printf("sample %zu count %zu\n", k, samp.getPositions()->size());
        vec3s("P", samp.getPositions()->get(), samp.getPositions()->size());
        for (size_t i = 0; i < samp.getIds()->size(); i++) printf("id %llu\n", (unsigned long long)(*samp.getIds())[i]);
        if (samp.getVelocities()) vec3s("v", samp.getVelocities()->get(), samp.getVelocities()->size());
        IFloatGeomParam widths = s.getWidthsParam();
        if (widths) {
            FloatArraySamplePtr w = widths.getExpandedValue(ISampleSelector((index_t)k)).getVals();
            for (size_t i = 0; i < w->size(); i++) printf("width %.9g\n", (*w)[i]);
        }
        Box3d b = s.getSelfBoundsProperty().getValue(ISampleSelector((index_t)k));
        printf("bounds %.9g %.9g %.9g %.9g %.9g %.9g\n", b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z);
        if (!arb) continue;
        for (size_t p = 0; p < arb.getNumProperties(); p++) {
            const PropertyHeader &h = arb.getPropertyHeader(p);
            IArrayProperty prop(arb, h.getName());
            AbcA::ArraySamplePtr a;
            prop.get(a, ISampleSelector((index_t)k));
            size_t values = a->size() * h.getDataType().getExtent();
            printf("arb %s %s scope %s arrayExtent %s values %zu\n", h.getName().c_str(),
                   PODName(h.getDataType().getPod()), h.getMetaData().get("geoScope").c_str(),
                   h.getMetaData().get("arrayExtent").c_str(), values);
            const float *f = static_cast<const float *>(a->getData());
            for (size_t i = 0; i < values; i++) printf("%.9g\n", f[i]);
        }
    }
}

static void mesh(IPolyMesh &obj) {
    IPolyMeshSchema &s = obj.getSchema();
    size_t n = s.getNumSamples();
    printf("mesh %s samples %zu topology %s\n", obj.getFullName().c_str(), n,
           s.getTopologyVariance() == kHeterogeneousTopology ? "changing" : "constant");
    timeLine(s.getTimeSampling(), n);
    for (size_t k = 0; k < n; k++) {
        IPolyMeshSchema::Sample samp;
        s.get(samp, ISampleSelector((index_t)k));
        printf("sample %zu verts %zu faces %zu\n", k, samp.getPositions()->size(), samp.getFaceCounts()->size());
        vec3s("P", samp.getPositions()->get(), samp.getPositions()->size());
        for (size_t i = 0; i < samp.getFaceCounts()->size(); i++) printf("count %d\n", (*samp.getFaceCounts())[i]);
        for (size_t i = 0; i < samp.getFaceIndices()->size(); i++) printf("index %d\n", (*samp.getFaceIndices())[i]);
        if (samp.getVelocities()) vec3s("v", samp.getVelocities()->get(), samp.getVelocities()->size());
    }
}

static void xform(IXform &obj) {
    IXformSchema &s = obj.getSchema();
    size_t n = s.getNumSamples();
    printf("xform %s samples %zu\n", obj.getFullName().c_str(), n);
    for (size_t k = 0; k < n; k++) {
        XformSample samp;
        s.get(samp, ISampleSelector((index_t)k));
        M44d m = samp.getMatrix();
        printf("matrix %zu inherits %d", k, samp.getInheritsXforms() ? 1 : 0);
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++) printf(" %.9g", m[r][c]);
        printf("\n");
    }
}

static void walk(IObject obj) {
    for (size_t i = 0; i < obj.getNumChildren(); i++) {
        IObject c = obj.getChild(i);
        if (IPoints::matches(c.getHeader())) {
            IPoints p(c, kWrapExisting);
            points(p);
        } else if (IPolyMesh::matches(c.getHeader())) {
            IPolyMesh m(c, kWrapExisting);
            mesh(m);
        } else if (IXform::matches(c.getHeader())) {
            IXform x(c, kWrapExisting);
            xform(x);
        } else {
            printf("object %s\n", c.getFullName().c_str());
        }
        walk(c);
    }
}

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    Alembic::AbcCoreFactory::IFactory factory;
    IArchive archive = factory.getArchive(argv[1]);
    if (!archive.valid()) {
        fprintf(stderr, "cannot open %s\n", argv[1]);
        return 1;
    }
    printf("application %s\n", archive.getPtr()->getMetaData().get("_ai_Application").c_str());
    walk(archive.getTop());
    return 0;
}
